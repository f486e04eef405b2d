// Hand-over (交接, issue 27): the administrator hands a member's open work to a handler in one step. What
// moves: open flows the member launched for the company, open company parties addressed to them (their old
// link and room stop working; the receiver gets a link), templates they created, live seal authorisations and
// keepings. What stays: other members' work, closed flows, their person parties, another company's rows.
import { beforeAll, describe, expect, test } from 'vitest';
import { type HandoverCounts, handOverMember, previewHandover } from '#contract/calls/company.ts';
import {
  type FlowDetail,
  getFlowDetail,
  getSigningRoom,
  listPendingSignatures,
  sendLinkSmsCode,
} from '#contract/calls/flow.ts';
import { type Seal, getUserCertSealList } from '#contract/calls/seal.ts';
import { type Template, listTemplates, saveTemplate } from '#contract/calls/template.ts';
import { Code } from '#contract/codes.ts';
import { type SealPolicy, getSealPolicy } from '#contract/calls/approval.ts';
import { savePolicy } from '../fixtures/approval.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { type Agent, appForFile } from '../helper.ts';
import {
  type Signer,
  type TestCompany,
  companyWithSeals,
  launchForOne,
  linkFor,
  ok,
  pendingRoom,
  sign,
  uploadPdf,
} from '../fixtures/flow.ts';
import { templateSourcePdf } from '../fixtures/template.ts';
import {
  auditTrail,
  companyMember,
  firstPage,
  launchForCompany,
  setKeepers,
  setRoles,
} from '../fixtures/roles.ts';

const t = appForFile();
let a: TestCompany;
let b: TestCompany;
/** The member who leaves (a's operator, with an authorisation of the contract seal, keeper of the finance seal). */
let from: Signer;
let to: Signer;
let other: Signer;
const flows: Record<string, string> = {};
let fromRoomToken: string;
let templateId: string;
let otherTemplateId: string;

const pendingIds = async (agent: Agent) =>
  ok(
    await agent.call<{ list: { flowId: string }[] }>(listPendingSignatures, { userType: 1 }),
    'pending',
  ).list.map((x) => x.flowId);

/** The administrator's hand-over (or its preview) of `from`'s work. */
const handOver = async (call: typeof handOverMember | typeof previewHandover, toUserId?: string) =>
  ok(
    await a.admin.agent.call<HandoverCounts>(call, { userType: 1, fromUserId: from.userId, toUserId }),
    'hand-over',
  );

async function saveTemplateBy(agent: Agent, name: string): Promise<string> {
  const up = ok(await uploadPdf(agent, await templateSourcePdf(), 1, 'sale.pdf'), 'upload');
  return ok(
    await agent.call<Template>(saveTemplate, {
      userType: 1,
      documentId: up.documentId,
      name,
      roles: [
        { key: 'partyA', name: '甲方', kind: 'company', applies: { companySealType: 102 }, stepIndex: 0 },
      ],
    }),
    'template',
  ).templateId;
}

beforeAll(async () => {
  a = await companyWithSeals(t);
  b = await companyWithSeals(t, '吴管理');
  from = a.operator;
  to = await companyMember(t, a.admin.agent, a.id, '孙接收');
  other = await companyMember(t, a.admin.agent, a.id, '周其他');
  await setRoles(a.admin.agent, from.userId, ['handler', 'seal_keeper', 'approver']);
  ok(await setKeepers(a.admin.agent, a.financeSealId, [from.userId]), 'keeper');
  // `from` approves the uses of the finance seal, with `other`; the contract seal's rule names `other` only.
  await setRoles(a.admin.agent, other.userId, ['handler', 'approver']);
  ok(
    await savePolicy(a.admin.agent, {
      sealId: a.financeSealId,
      mode: 'all_in_order',
      approverIds: [from.userId, other.userId],
    }),
    'finance rule',
  );
  ok(
    await savePolicy(a.admin.agent, { sealId: a.contractSealId, mode: 'none', approverIds: [other.userId] }),
    'contract rule',
  );
  // Open: launched by `from` and signed by `from`; launched by `from`, signed by `other`.
  flows.fromToFrom = await launchForCompany(from.agent, a.id, from.phone, '甲：自己签');
  fromRoomToken = (await pendingRoom(from.agent, flows.fromToFrom)).roomToken;
  flows.fromToOther = await launchForCompany(from.agent, a.id, other.phone, '乙：他人签');
  // Launched by the administrator, signed by `from`.
  flows.adminToFrom = await launchForCompany(a.admin.agent, a.id, from.phone, '丙：管理员发起');
  // Another member's open work.
  flows.otherToOther = await launchForCompany(other.agent, a.id, other.phone, '丁：他人的');
  // Closed: launched and signed by `from`.
  flows.closed = await launchForCompany(from.agent, a.id, from.phone, '戊：已完成');
  const room = await pendingRoom(from.agent, flows.closed);
  ok(await sign(t, from.agent, room, from.phone, { companySealId: a.contractSealId }), 'sign closed');
  // `from` as a person signer of the company's flow: not company work.
  flows.personParty = (
    await launchForOne(a.admin.agent, { name: from.name, phone: from.phone }, { userType: 1 })
  ).flowId;
  // Another company's open flow.
  flows.otherCompany = await launchForCompany(b.admin.agent, b.id, b.operator.phone, '己：另一家');
  templateId = await saveTemplateBy(from.agent, '离职者的模板');
  otherTemplateId = await saveTemplateBy(other.agent, '他人的模板');
}, 240_000);

describe('hand-over', () => {
  test('refusals: not the administrator, a receiver without the handler role, oneself, another company', async () => {
    const body = { userType: 1, fromUserId: from.userId, toUserId: to.userId };
    expect((await other.agent.call(handOverMember, body)).status).toBe(602);
    await setRoles(a.admin.agent, to.userId, []);
    expect((await a.admin.agent.call(handOverMember, body)).body.code).toBe(Code.Refused);
    await setRoles(a.admin.agent, to.userId, ['handler']);
    expect((await a.admin.agent.call(handOverMember, { ...body, toUserId: from.userId })).body.code).toBe(
      Code.Refused,
    );
    const foreign = await a.admin.agent.call(handOverMember, { ...body, fromUserId: b.operator.userId });
    expect(foreign.body.code).toBe(Code.NotFound);
    const foreignTo = await a.admin.agent.call(handOverMember, { ...body, toUserId: b.operator.userId });
    expect(foreignTo.body.code).toBe(Code.NotFound);
  });

  test('the preview counts what will move (with or without a receiver) and moves nothing', async () => {
    const counts = await handOver(previewHandover, to.userId);
    expect(counts).toEqual({
      flows: 2,
      parties: 2,
      templates: 1,
      sealAuthorisations: 1,
      sealKeepings: 1,
      other: { approvalRules: 1, approvalRequests: 0, memberLetters: 0 },
    });
    expect(await handOver(previewHandover)).toEqual(counts);
    expect(await pendingIds(from.agent)).toEqual(
      expect.arrayContaining([flows.fromToFrom, flows.adminToFrom]),
    );
  });

  test('hand-over moves the open work in one step', async () => {
    const counts = await handOver(handOverMember, to.userId);
    expect(counts).toMatchObject({
      flows: 2,
      parties: 2,
      templates: 1,
      sealAuthorisations: 1,
      sealKeepings: 1,
    });
    // The receiver finds both parties pending and was sent their links.
    const toPending = await pendingIds(to.agent);
    expect(toPending).toEqual(expect.arrayContaining([flows.fromToFrom, flows.adminToFrom]));
    expect(toPending).not.toContain(flows.otherToOther);
    expect((await linkFor(t, to.phone)).linkCode).toBeTruthy();
    // The flows `from` launched are the receiver's now: the initiator's name.
    const d = ok(
      await to.agent.call<FlowDetail>(getFlowDetail, { userType: 1, flowId: flows.fromToOther }),
      'd',
    );
    expect(JSON.stringify(d)).toContain('孙接收');
  });

  test("the leaver's room and link for a moved party stop working; the receiver signs with the moved authorisation", async () => {
    const room = await from.agent.call(getSigningRoom, { userType: 1, roomToken: fromRoomToken });
    expect(room.body.code).toBe(Code.RoomTokenInvalid);
    // The link `from` was sent for the administrator's flow, with `from`'s phone or the receiver's: refused.
    const [sent] = (await listOutbox(t.db, { to: from.phone, limit: 50 })).filter((m) =>
      m.text.includes('丙：'),
    );
    const [, linkType, linkCode] = /\/singingRoom\/(\d)\/([A-Za-z0-9_-]+)/.exec(sent.text)!;
    for (const phone of [from.phone, to.phone]) {
      const sms = await t
        .agent()
        .call(sendLinkSmsCode, { userType: 0, linkType: Number(linkType), linkCode, phone });
      expect(sms.body.code).toBe(Code.LinkInvalid);
    }
    expect(await pendingIds(from.agent)).not.toContain(flows.fromToFrom);
    const seals = ok(
      await to.agent.call<{ seals: Seal[] }>(getUserCertSealList, { userType: 1 }),
      'seals',
    ).seals;
    expect(seals.map((s) => s.id)).toContain(a.contractSealId);
    const toRoom = await pendingRoom(to.agent, flows.fromToFrom);
    const signed = await sign(t, to.agent, toRoom, to.phone, { companySealId: a.contractSealId });
    expect(signed.body.code, signed.body.msg).toBe(0);
    // `from` lost the authorisation (it moved) and the keeping.
    const fromSeals = ok(
      await from.agent.call<{ seals: Seal[] }>(getUserCertSealList, { userType: 1 }),
      'mine',
    );
    expect(fromSeals.seals).toEqual([]);
  }, 60_000);

  test('nothing else moved: other members, closed flows, person parties, another company', async () => {
    // `other` still signs the flow `from` launched, and their own.
    expect(await pendingIds(other.agent)).toEqual(
      expect.arrayContaining([flows.fromToOther, flows.otherToOther]),
    );
    // The closed flow still names `from` as its initiator; the person party is still `from`'s as a person.
    const closed = ok(
      await a.admin.agent.call<FlowDetail>(getFlowDetail, { userType: 1, flowId: flows.closed }),
      'closed',
    );
    expect(JSON.stringify(closed)).not.toContain('孙接收');
    const personParty = ok(
      await a.admin.agent.call<FlowDetail>(getFlowDetail, { userType: 1, flowId: flows.personParty }),
      'person',
    );
    expect(JSON.stringify(personParty)).toContain(from.phone.slice(-4));
    expect(JSON.stringify(personParty)).not.toContain('孙接收');
    // Another company's flow is still pending for its operator.
    expect(await pendingIds(b.operator.agent)).toContain(flows.otherCompany);
    // Templates: `from`'s is the receiver's, another member's stays theirs.
    const templates = await firstPage<{ templateId: string; createdByName: string | null }>(
      a.admin.agent,
      listTemplates,
    );
    const by = new Map(templates.map((x) => [x.templateId, x.createdByName]));
    expect(by.get(templateId)).toBe('孙接收');
    expect(by.get(otherTemplateId)).toBe('周其他');
    // The other member's seals are unchanged: b's operator still has b's contract seal.
    const bSeals = ok(
      await b.operator.agent.call<{ seals: Seal[] }>(getUserCertSealList, { userType: 1 }),
      'b',
    );
    expect(bSeals.seals.map((s) => s.id)).toEqual([b.contractSealId]);
    // The finance seal's rule names the receiver where it named `from`, in the same place; the contract seal's
    // rule (without `from`) is unchanged.
    const rule = async (sealId: string) =>
      ok(await a.admin.agent.call<SealPolicy>(getSealPolicy, { userType: 1, sealId }), 'rule').approvers.map(
        (x) => x.userId,
      );
    expect(await rule(a.financeSealId)).toEqual([to.userId, other.userId]);
    expect(await rule(a.contractSealId)).toEqual([other.userId]);
  });

  test('the audit trail has one hand-over entry with who, whom, the receiver and the counts', async () => {
    const trail = await auditTrail(a.admin.agent);
    const entries = trail.filter((e) => e.kind === 'handover');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorName: '王管理', subjectName: '赵经办' });
    expect(entries[0].detail).toMatchObject({
      toUserId: to.userId,
      toName: '孙接收',
      flows: 2,
      parties: 2,
      templates: 1,
      sealAuthorisations: 1,
      sealKeepings: 1,
    });
    expect(Number.isNaN(Date.parse(entries[0].createdAt))).toBe(false);
  });
});
