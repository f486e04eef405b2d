// Void by agreement (issue 29) through HTTP: only the launching account may start a rescission, only of a
// completed contract, one open at a time; the drafted agreement names the original's SHA-256 (pdf.js text);
// a declined rescission leaves the original as it was; a completed one voids it (detail, lists, audit chain,
// verification by upload and by code); nothing is deleted; another account gets 1101.
import { beforeAll, describe, expect, test } from 'vitest';
import { DOCUMENT_DOWNLOAD_PATH, SIGNED_PDF_PATH } from '#contract/calls/document.ts';
import {
  type FlowDetail,
  declineFlow,
  getAuditTrail,
  getFlowDetail,
  launchFlow,
  listLaunchedFlows,
  listPendingSignatures,
} from '#contract/calls/flow.ts';
import { getRescission, startRescission } from '#contract/calls/rescission.ts';
import { VERIFY_REPORT_PATH, type VerifyResult, verifyByCode } from '#contract/calls/verify.ts';
import { Code } from '#contract/codes.ts';
import { type FlowEvent, flowEvent } from '#server/modules/flow/index.ts';
import { openPdf } from '#server/pdf/pdfjs.ts';
import { appForFile } from '../helper.ts';
import {
  type Signer,
  type TestCompany,
  companyWithSeals,
  contractPdf,
  expectAllPassed,
  getBytes,
  launchForOne,
  ok,
  openByLink,
  pendingRoom,
  personWithCert,
  sign,
  signByLink,
  uploadPdf,
} from '../fixtures/flow.ts';
import { checkFile } from '../fixtures/verify.ts';
import { launchForCompany } from '../fixtures/approval.ts';

const t = appForFile();
let launcher: Signer;
let buyer: Signer;
let seller: Signer;
let stranger: Signer;
let originalId: string;
let signedBefore: Uint8Array;
let signedSha: string;
let documentId: string;

type State = {
  rescinds: { flowId: string } | null;
  voidedAt: string | null;
  voidedBy: { flowId: string } | null;
  open: { flowId: string } | null;
  history: { flowId: string; status: string }[];
  canStart: boolean;
};

const start = (who: Signer, flowId: string, reason = '双方协商一致 mutual agreement') =>
  who.agent.call<{ flowId: string; verificationCodes: string[] }>(startRescission, {
    userType: 0,
    flowId,
    reason,
  });
const stateOf = async (who: Signer, flowId: string) =>
  ok(await who.agent.call<State>(getRescission, { userType: 0, flowId }), 'state');
const detailOf = async (who: Signer, flowId: string) =>
  ok(await who.agent.call<FlowDetail>(getFlowDetail, { userType: 0, flowId }), 'detail');

/** pdf.js text of every page. */
async function textOf(pdf: Uint8Array): Promise<string> {
  const doc = await openPdf(pdf);
  let all = '';
  for (let n = 1; n <= doc.numPages; n++)
    all += (await (await doc.getPage(n)).getTextContent()).items
      .map((i) => ('str' in i ? i.str : ''))
      .join('');
  await doc.loadingTask.destroy();
  return all;
}

/** Both parties sign the flow whose links they were sent last (buyer first, then seller). */
async function bothSign() {
  ok(await signByLink(t, buyer.agent, buyer), 'buyer signs');
  return ok(await signByLink(t, seller.agent, seller), 'seller signs');
}

const flowEvents: FlowEvent[] = [];

beforeAll(async () => {
  t.deps.hooks.on(flowEvent, ({ event }) => {
    flowEvents.push(event);
    return null;
  });
  launcher = await personWithCert(t, '赵发起');
  buyer = await personWithCert(t, '李四');
  seller = await personWithCert(t, '张三');
  stranger = await personWithCert(t, '王五');
  const up = ok(await uploadPdf(launcher.agent, await contractPdf(1), 0), 'upload');
  documentId = up.documentId;
  const position = (y: number) => ({ documentId, page: 1, mm: { left: 20, top: y, width: 40, height: 20 } });
  originalId = ok(
    await launcher.agent.call<{ flowId: string }>(launchFlow, {
      userType: 0,
      title: '采购合同 Purchase contract',
      documentIds: [documentId],
      steps: [
        { parties: [{ kind: 'person', name: buyer.name, phone: buyer.phone, positions: [position(150)] }] },
        { parties: [{ kind: 'person', name: seller.name, phone: seller.phone, positions: [position(200)] }] },
      ],
    }),
    'launch',
  ).flowId;
}, 180_000);

describe('void by agreement', () => {
  test('an open contract cannot be voided; only completed ones', async () => {
    const res = await start(launcher, originalId);
    expect(res.body.code).toBe(Code.Refused);
    expect(res.body.msg).toMatch(/completed/);
    expect((await bothSign()).flowStatus).toBe('completed');
    const signed = await getBytes(launcher.agent, `${SIGNED_PDF_PATH}/${originalId}/${documentId}`);
    expect(signed.status).toBe(200);
    signedBefore = signed.bytes;
    signedSha = (await detailOf(launcher, originalId)).documents[0].sha256;
    expect((await stateOf(launcher, originalId)).canStart).toBe(true);
  }, 120_000);

  test('another account gets 1101; a party that did not launch it is refused', async () => {
    expect((await start(stranger, originalId)).body.code).toBe(Code.NotFound);
    expect((await stranger.agent.call(getRescission, { userType: 0, flowId: originalId })).body.code).toBe(
      Code.NotFound,
    );
    const byParty = await start(buyer, originalId);
    expect(byParty.body.code).toBe(Code.Refused);
    expect(byParty.body.msg).toMatch(/launched the contract/);
    expect((await stateOf(buyer, originalId)).canStart).toBe(false);
  });

  let firstId: string;
  test('the launcher starts one: the drafted agreement names the original, to the same parties in order', async () => {
    firstId = ok(await start(launcher, originalId, '价格调整 price changed'), 'start').flowId;
    const again = await start(launcher, originalId);
    expect(again.body.code).toBe(Code.Refused);
    expect(again.body.msg).toMatch(/being signed/);
    const d = await detailOf(launcher, firstId);
    expect(d.status).toBe('signing');
    expect(d.rescindsFlowId).toBe(originalId);
    expect(d.title).toBe('解除协议 · 采购合同 Purchase contract');
    expect(d.steps.map((s) => s.parties.map((p) => [p.name, p.kind]))).toEqual([
      [[buyer.name, 'person']],
      [[seller.name, 'person']],
    ]);
    const pdf = await getBytes(launcher.agent, `${DOCUMENT_DOWNLOAD_PATH}/${d.documents[0].documentId}`);
    expect(pdf.status).toBe(200);
    const text = (await textOf(pdf.bytes)).replace(/\s+/g, '');
    expect(text).toContain('解除协议');
    expect(text).toContain('Rescissionagreement');
    expect(text).toContain(signedSha);
    expect(text).toContain(originalId);
    expect(text).toContain('采购合同');
    expect(text).toContain(buyer.name);
    expect(text).toContain(seller.name);
    expect(text).toContain('价格调整');
    const s = await stateOf(launcher, originalId);
    expect(s.open?.flowId).toBe(firstId);
    expect(s.canStart).toBe(false);
    expect((await stateOf(buyer, firstId)).rescinds?.flowId).toBe(originalId);
  }, 60_000);

  test('a declined rescission leaves the original as it was', async () => {
    const room = await openByLink(t, buyer.agent, buyer.phone);
    ok(
      await buyer.agent.call(declineFlow, { userType: 0, roomToken: room.roomToken, reason: 'no' }),
      'decline',
    );
    const d = await detailOf(launcher, originalId);
    expect(d.status).toBe('completed');
    expect(d.voidedAt).toBeNull();
    const s = await stateOf(launcher, originalId);
    expect(s.voidedAt).toBeNull();
    expect(s.open).toBeNull();
    expect(s.history).toEqual([expect.objectContaining({ flowId: firstId, status: 'declined' })]);
    expect(s.canStart).toBe(true);
  }, 60_000);

  let secondId: string;
  test('a rescission both parties sign voids the original everywhere; nothing is deleted', async () => {
    // Two asked at once: one agreement is launched, the other refused (the one-open index).
    const both = await Promise.all([start(launcher, originalId), start(launcher, originalId)]);
    expect(both.map((r) => r.body.code).sort()).toEqual([0, Code.Refused]);
    secondId = both.find((r) => r.body.code === 0)!.body.data.flowId;
    expect((await stateOf(launcher, originalId)).history.map((f) => f.flowId)).toContain(secondId);
    expect((await stateOf(launcher, originalId)).history).toHaveLength(2);
    expect((await bothSign()).flowStatus).toBe('completed');

    const d = await detailOf(launcher, originalId);
    expect(d.status).toBe('completed');
    expect(d.voidedAt).not.toBeNull();
    expect(d.voidedByFlowId).toBe(secondId);
    const s = await stateOf(seller, originalId);
    expect(s.voidedBy?.flowId).toBe(secondId);
    expect(s.canStart).toBe(false);
    expect((await start(launcher, originalId)).body.code).toBe(Code.Refused);
    expect((await start(launcher, secondId)).body.code).toBe(Code.Refused);

    const launched = ok(
      await launcher.agent.call<{ list: FlowDetail[] }>(listLaunchedFlows, { userType: 0 }),
      'list',
    );
    const row = launched.list.find((x) => x.flowId === originalId);
    expect(row?.voidedAt).toBe(d.voidedAt);
    expect(launched.list.find((x) => x.flowId === secondId)?.rescindsFlowId).toBe(originalId);
    const signedList = ok(
      await buyer.agent.call<{ list: FlowDetail[] }>(listPendingSignatures, {
        userType: 0,
        status: 'signed',
      }),
      'sign list',
    );
    expect(signedList.list.find((x) => x.flowId === originalId)?.voidedByFlowId).toBe(secondId);

    const trail = ok(
      await launcher.agent.call<{ entries: { event: string; detail: string | null }[] }>(getAuditTrail, {
        userType: 0,
        flowId: originalId,
      }),
      'trail',
    );
    const events = trail.entries.map((e) => e.event);
    expect(events.filter((e) => e === 'rescission_requested')).toHaveLength(2);
    expect(trail.entries.find((e) => e.event === 'voided')?.detail).toContain(secondId);
    // The webhook event, once, about the original.
    expect(flowEvents.filter((e) => e.type === 'flow.voided').map((e) => e.flowId)).toEqual([originalId]);

    // Nothing deleted: the signed PDF is the same file, still downloadable.
    const after = await getBytes(launcher.agent, `${SIGNED_PDF_PATH}/${originalId}/${documentId}`);
    expect(after.status).toBe(200);
    expect(Buffer.from(after.bytes).equals(Buffer.from(signedBefore))).toBe(true);
    expect(d.documents[0].sha256).toBe(signedSha);
    expect((await detailOf(launcher, firstId)).status).toBe('declined');
  }, 120_000);

  test('the verification of the original signed PDF carries the rescission (upload and code)', async () => {
    const rescissionSha = (await detailOf(launcher, secondId)).documents[0].sha256;
    const byUpload = ok(await checkFile(t.agent(), signedBefore, 'contract.pdf'), 'check');
    expect(byUpload.rescission).toMatchObject({
      flowId: originalId,
      rescissionFlowId: secondId,
      rescissionSha256: [rescissionSha],
    });
    // The report PDF says it too.
    const report = await getBytes(t.agent(), `${VERIFY_REPORT_PATH}/${byUpload.reportId}.pdf`);
    expect(report.status).toBe(200);
    const reportText = (await textOf(report.bytes)).replace(/\s+/g, '');
    expect(reportText).toContain('Voidedbyagreement');
    expect(reportText).toContain(secondId);
    const code = (await detailOf(launcher, originalId)).documents[0].verificationCode!;
    const byCode = ok(
      await t.agent().call<{ result: VerifyResult }>(verifyByCode, { userType: 0, code }),
      'by code',
    );
    expect(byCode.result.rescission?.rescissionFlowId).toBe(secondId);
    // Another contract's file says nothing of a rescission.
    const other = await launchForOne(launcher.agent, buyer);
    ok(await signByLink(t, buyer.agent, buyer), 'other signed');
    const otherPdf = await getBytes(launcher.agent, `${SIGNED_PDF_PATH}/${other.flowId}/${other.documentId}`);
    const plain = ok(await checkFile(t.agent(), otherPdf.bytes, 'other.pdf'), 'check other');
    expect(plain.rescission ?? null).toBeNull();
  }, 120_000);
});

describe('void by agreement of a company contract: the company party signs the agreement with its seal', () => {
  let company: TestCompany;
  let contractId: string;
  test('launched by the company to its operator (contract seal) and a person; voided by an agreement both sign', async () => {
    company = await companyWithSeals(t);
    const admin = company.admin.agent;
    // The company (its operator, contract seal) and a person sign in parallel, in one step.
    contractId = (
      await launchForCompany(company, {
        title: '供货合同',
        alongside: [{ kind: 'person', name: buyer.name, phone: buyer.phone }],
      })
    ).flowId;
    const sealAs = async (flowId: string) => {
      const room = await pendingRoom(company.operator.agent, flowId);
      ok(
        await sign(t, company.operator.agent, room, company.operator.phone, {
          companySealId: company.contractSealId,
        }),
        'seal',
      );
    };
    await sealAs(contractId);
    expect(ok(await signByLink(t, buyer.agent, buyer), 'buyer').flowStatus).toBe('completed');

    // The company's administrator asks; the agreement goes to the same company party, with the same seal needs.
    const started = await admin.call<{ flowId: string }>(startRescission, {
      userType: 1,
      flowId: contractId,
      reason: '合同目的无法实现',
    });
    const rescissionId = ok(started, 'start').flowId;
    const d = ok(
      await admin.call<FlowDetail>(getFlowDetail, { userType: 1, flowId: rescissionId }),
      'detail',
    );
    const [party] = d.steps[0].parties;
    expect(party).toMatchObject({ kind: 'company', companyName: company.name });
    expect(party.applies.companySealType).toBe(102);
    expect(d.steps[0].parties[1].name).toBe(buyer.name);

    await sealAs(rescissionId);
    expect(ok(await signByLink(t, buyer.agent, buyer), 'buyer signs the agreement').flowStatus).toBe(
      'completed',
    );
    const original = ok(
      await admin.call<FlowDetail>(getFlowDetail, { userType: 1, flowId: contractId }),
      'detail',
    );
    expect(original.voidedByFlowId).toBe(rescissionId);
    // The signed agreement is a sound PDF: every signature passes (company seal, person, document time-stamp).
    const agreement = await getBytes(
      admin,
      `${SIGNED_PDF_PATH}/${rescissionId}/${d.documents[0].documentId}`,
    );
    expect(agreement.status).toBe(200);
    await expectAllPassed(t, agreement.bytes, 3);
  }, 240_000);
});
