// Copy recipients (抄送, issue 29) through HTTP: launch checks (1100 naming the recipient), the read-only link
// (signing and room calls refuse it, it never acts), notices at launch, at each signature (progress) and at
// completion, the link working after completion (signed PDF, audit report), a cancelled flow's documents refused,
// the launcher's list and additions (another account's flow 1101), "copied to me" and the audit entries.
import { beforeAll, describe, expect, test } from 'vitest';
import {
  CC_DOWNLOAD_PATH,
  type CcRecipient,
  type CcView,
  addFlowCc,
  getCcView,
  listCopiedToMe,
  listFlowCc,
  openCopiedFlow,
} from '#contract/calls/cc.ts';
import {
  cancelFlow,
  getAuditTrail,
  getFlowDetail,
  getSigningRoom,
  listMessages,
  sendSignSmsCode,
  signDocument,
} from '#contract/calls/flow.ts';
import { Code } from '#contract/codes.ts';
import { type Template, saveTemplate } from '#contract/calls/template.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { ccFlowIdsOfPhone } from '#server/modules/flow/index.ts';
import { type Agent, appForFile, registerAndLogin } from '../helper.ts';
import {
  type Signer,
  getBytes,
  launchForOne,
  ok,
  personWithCert,
  signByLink,
  tryLaunchForOne,
  uploadPdf,
} from '../fixtures/flow.ts';
import { makeKey, open } from '../fixtures/open.ts';
import { templateSourcePdf } from '../fixtures/template.ts';

const t = appForFile();
let launcher: Signer;
let signer: Signer;
let other: Signer;
/** A copy recipient with an account (progress chosen) and one without (the finished contract only). */
let watcher: { agent: Agent; phone: string };
const plainPhone = `139${String(Date.now() % 1e8).padStart(8, '0')}`;

/** The latest copy link sent to a phone (from the outbox), or null. */
async function ccTokenFor(phone: string): Promise<string | null> {
  const [m] = (await listOutbox(t.db, { to: phone, limit: 50 })).filter((x) => /\/ccView\//.test(x.text));
  return (m && /\/ccView\/([A-Za-z0-9_-]+)/.exec(m.text)?.[1]) ?? null;
}
const ccTexts = async (phone: string) =>
  (await listOutbox(t.db, { to: phone, limit: 50 }))
    .filter((x) => x.purpose === 'flow:cc')
    .map((x) => x.text);

const cc = (name: string, phone: string, notifyProgress = false) => ({ name, phone, notifyProgress });

beforeAll(async () => {
  launcher = await personWithCert(t, '赵发起');
  signer = await personWithCert(t, '钱签署');
  other = await personWithCert(t, '孙旁人');
  const w = await registerAndLogin(t);
  watcher = { agent: w.agent, phone: w.phone };
}, 120_000);

describe('launch checks', () => {
  test('more than 20, a phone twice, a signer, a malformed phone are refused', async () => {
    const many = Array.from({ length: 21 }, (_, i) => cc(`抄送${i}`, `1380000${String(i).padStart(4, '0')}`));
    const tooMany = await tryLaunchForOne(launcher.agent, signer, { extra: { cc: many } });
    expect(tooMany.body.code).toBe(Code.Refused);
    expect(tooMany.body.msg).toMatch(/20/);
    const twice = await tryLaunchForOne(launcher.agent, signer, {
      extra: { cc: [cc('甲', plainPhone), cc('乙', plainPhone)] },
    });
    expect(twice.body.code).toBe(Code.Refused);
    expect(twice.body.msg).toMatch(/乙/);
    const isSigner = await tryLaunchForOne(launcher.agent, signer, {
      extra: { cc: [cc('丙', signer.phone)] },
    });
    expect(isSigner.body.code).toBe(Code.Refused);
    expect(isSigner.body.msg).toMatch(/丙/);
    const bad = await tryLaunchForOne(launcher.agent, signer, { extra: { cc: [cc('丁', '12345')] } });
    expect(bad.body.code).toBe(Code.BadRequest);
  });
});

describe('a flow with two copy recipients', () => {
  let flowId: string;
  let documentId: string;

  test('launch: only the recipient who chose progress is told now', async () => {
    ({ flowId, documentId } = await launchForOne(launcher.agent, signer, {
      title: '抄送合同 CC contract',
      extra: { cc: [cc('周观察', watcher.phone, true), cc('吴财务', plainPhone)] },
    }));
    expect(await ccTokenFor(watcher.phone)).not.toBeNull();
    expect((await ccTexts(watcher.phone)).join()).toMatch(/抄送合同 CC contract/);
    expect(await ccTokenFor(plainPhone)).toBeNull();
  });

  test('the launcher lists them (phones masked); a party and another account get 1101', async () => {
    const list = ok(
      await launcher.agent.call<{ list: CcRecipient[] }>(listFlowCc, { userType: 0, flowId }),
      'l',
    );
    expect(list.list.map((c) => [c.name, c.notifyProgress])).toEqual([
      ['周观察', true],
      ['吴财务', false],
    ]);
    expect(list.list[1].phoneMasked).toBe(`${plainPhone.slice(0, 3)}****${plainPhone.slice(-4)}`);
    expect((await signer.agent.call(listFlowCc, { userType: 0, flowId })).body.code).toBe(Code.NotFound);
    expect((await other.agent.call(listFlowCc, { userType: 0, flowId })).body.code).toBe(Code.NotFound);
    const add = await other.agent.call(addFlowCc, { userType: 0, flowId, cc: cc('外人', '13700000001') });
    expect(add.body.code).toBe(Code.NotFound);
  });

  test('the link is read only: the view answers, room and signing calls refuse it', async () => {
    const token = (await ccTokenFor(watcher.phone))!;
    const anon = t.agent();
    const view = ok(await anon.call<CcView>(getCcView, { userType: 0, ccToken: token }), 'view');
    expect(view.title).toBe('抄送合同 CC contract');
    expect(view.status).toBe('signing');
    expect(view.recipientName).toBe('周观察');
    expect(view.parties).toEqual([expect.objectContaining({ name: '钱签署', status: 'pending', step: 1 })]);
    expect(view.mayDownload).toBe(true);
    expect(view.hasAuditReport).toBe(false);
    // Not a room token: every room call refuses it.
    const room = await anon.call(getSigningRoom, { userType: 0, roomToken: token });
    expect(room.body.code).toBe(Code.RoomTokenInvalid);
    const sms = await anon.call(sendSignSmsCode, { userType: 0, roomToken: token });
    expect(sms.body.code).toBe(Code.RoomTokenInvalid);
    const signed = await anon.call(signDocument, {
      userType: 0,
      roomToken: token,
      smsCode: '123456',
      personSealId: signer.sealId,
    });
    expect(signed.body.code).toBe(Code.RoomTokenInvalid);
    const detail = await anon.call(getFlowDetail, { userType: 0, flowId, roomToken: token });
    expect(detail.body.code).toBe(Code.RoomTokenInvalid);
    // While signing: the current version, no audit report yet.
    const current = await getBytes(anon, `${CC_DOWNLOAD_PATH}/${documentId}?ccToken=${token}`);
    expect(current.status).toBe(200);
    expect(Buffer.from(current.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const report = await getBytes(anon, `${CC_DOWNLOAD_PATH}/report?ccToken=${token}`);
    expect(JSON.parse(Buffer.from(report.bytes).toString()).code).toBe(Code.Refused);
    // An unknown token, a document of another flow.
    const unknown = await anon.call(getCcView, { userType: 0, ccToken: 'x'.repeat(32) });
    expect(unknown.body.code).toBe(Code.LinkInvalid);
    const foreign = await launchForOne(other.agent, launcher);
    const wrongDoc = await getBytes(anon, `${CC_DOWNLOAD_PATH}/${foreign.documentId}?ccToken=${token}`);
    expect(JSON.parse(Buffer.from(wrongDoc.bytes).toString()).code).toBe(Code.NotFound);
  });

  test('the launcher adds a third recipient while the flow is open (an audit entry)', async () => {
    const res = ok(
      await launcher.agent.call<{ list: CcRecipient[] }>(addFlowCc, {
        userType: 0,
        flowId,
        cc: cc('郑法务', '13700000002'),
      }),
      'add',
    );
    expect(res.list.map((c) => c.name)).toEqual(['周观察', '吴财务', '郑法务']);
    const again = await launcher.agent.call(addFlowCc, {
      userType: 0,
      flowId,
      cc: cc('郑二', '13700000002'),
    });
    expect(again.body.code).toBe(Code.Refused);
    const trail = ok(
      await launcher.agent.call<{ entries: { event: string; detail: string | null }[] }>(getAuditTrail, {
        userType: 0,
        flowId,
      }),
      'trail',
    );
    expect(trail.entries.some((e) => e.event === 'cc_added' && /郑法务/.test(e.detail ?? ''))).toBe(true);
  });

  test('a signature tells the progress recipient; completion tells every recipient', async () => {
    const before = (await ccTexts(watcher.phone)).length;
    ok(await signByLink(t, t.agent(), signer), 'sign');
    const texts = await ccTexts(watcher.phone);
    // progress (钱签署 has signed) and the finished contract
    expect(texts.length).toBe(before + 2);
    expect(texts.some((x) => /钱签署已签署/.test(x))).toBe(true);
    expect(texts[0]).toMatch(/已完成签署/);
    expect((await ccTexts(plainPhone)).length).toBe(1);
    expect((await ccTexts(plainPhone))[0]).toMatch(/已完成签署/);
    expect(await ccTokenFor('13700000002')).not.toBeNull();
  });

  test('the link works after completion: the signed PDF and the audit report, each an audit entry', async () => {
    const token = (await ccTokenFor(plainPhone))!;
    const anon = t.agent();
    const view = ok(await anon.call<CcView>(getCcView, { userType: 0, ccToken: token }), 'view');
    expect(view.status).toBe('completed');
    expect(view.parties[0].status).toBe('signed');
    expect(view.hasAuditReport).toBe(true);
    const pdf = await getBytes(anon, `${CC_DOWNLOAD_PATH}/${documentId}?ccToken=${token}`);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(Buffer.from(pdf.bytes).includes(Buffer.from('/ByteRange'))).toBe(true);
    const report = await getBytes(anon, `${CC_DOWNLOAD_PATH}/report?ccToken=${token}`);
    expect(report.status).toBe(200);
    expect(Buffer.from(report.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    // The earlier progress link still opens the view.
    const first = (await listOutbox(t.db, { to: watcher.phone, limit: 50 }))
      .filter((x) => /\/ccView\//.test(x.text))
      .at(-1)!;
    const firstToken = /\/ccView\/([A-Za-z0-9_-]+)/.exec(first.text)![1];
    expect((await anon.call(getCcView, { userType: 0, ccToken: firstToken })).body.code).toBe(0);
    const trail = ok(
      await launcher.agent.call<{ entries: { event: string; actor: string; detail: string | null }[] }>(
        getAuditTrail,
        { userType: 0, flowId },
      ),
      'trail',
    );
    const byCc = trail.entries.filter((e) => e.actor === '吴财务 (抄送 cc)');
    expect(byCc.map((e) => e.event)).toEqual(expect.arrayContaining(['view', 'download']));
    const list = ok(
      await launcher.agent.call<{ list: CcRecipient[] }>(listFlowCc, { userType: 0, flowId }),
      'l',
    );
    expect(list.list.find((c) => c.name === '吴财务')?.lastViewedAt).not.toBeNull();
    // Ended: no more recipients.
    const late = await launcher.agent.call(addFlowCc, { userType: 0, flowId, cc: cc('晚到', '13700000003') });
    expect(late.body.code).toBe(Code.Refused);
  });

  test('a recipient with an account sees the flow in messages and "copied to me"', async () => {
    const msgs = ok(
      await watcher.agent.call<{ list: { kind: string; flowId: string | null; link: string | null }[] }>(
        listMessages,
        { userType: 0 },
      ),
      'messages',
    );
    const mine = msgs.list.filter((m) => m.kind === 'cc' && m.flowId === flowId);
    expect(mine.length).toBe(3);
    expect(mine[0].link).toMatch(/^\/ccView\//);
    const copied = ok(
      await watcher.agent.call<{ list: { flowId: string; status: string }[]; total: number }>(
        listCopiedToMe,
        {
          userType: 0,
        },
      ),
      'copied',
    );
    expect(copied.list.map((f) => [f.flowId, f.status])).toEqual([[flowId, 'completed']]);
    // Opened from the list: a new link of the person's own row; another person gets 1101.
    const ccId = (copied.list[0] as unknown as { ccId: string }).ccId;
    const opened = ok(
      await watcher.agent.call<{ link: string }>(openCopiedFlow, { userType: 0, ccId }),
      'open',
    );
    const viaList = ok(
      await t.agent().call<CcView>(getCcView, { userType: 0, ccToken: opened.link.split('/').pop()! }),
      'view via list',
    );
    expect(viaList.flowId).toBe(flowId);
    expect((await signer.agent.call(openCopiedFlow, { userType: 0, ccId })).body.code).toBe(Code.NotFound);
    expect(await ccFlowIdsOfPhone(t.deps, watcher.phone)).toEqual([flowId]);
    // The signer was copied on nothing.
    const none = ok(await signer.agent.call<{ total: number }>(listCopiedToMe, { userType: 0 }), 'none');
    expect(none.total).toBe(0);
  });
});

test("a cancelled flow's documents are refused to its recipients; the view still answers", async () => {
  const phone = '13700000009';
  const { flowId, documentId } = await launchForOne(launcher.agent, signer, {
    extra: { cc: [cc('王审计', phone, true)] },
  });
  ok(await launcher.agent.call(cancelFlow, { userType: 0, flowId, reason: 'wrong file' }), 'cancel');
  const token = (await ccTokenFor(phone))!;
  const anon = t.agent();
  const view = ok(await anon.call<CcView>(getCcView, { userType: 0, ccToken: token }), 'view');
  expect(view.status).toBe('cancelled');
  expect(view.mayDownload).toBe(false);
  const doc = await getBytes(anon, `${CC_DOWNLOAD_PATH}/${documentId}?ccToken=${token}`);
  expect(JSON.parse(Buffer.from(doc.bytes).toString()).code).toBe(Code.Refused);
  // Cancelled is not completed: no completion notice, only the launch's.
  expect((await ccTexts(phone)).length).toBe(1);
});

test('the open API takes copy recipients, from documents and from a template', async () => {
  const key = (await makeKey(launcher.agent, ['flows:read', 'flows:write'])).secret;
  const up = ok(await uploadPdf(launcher.agent, await templateSourcePdf()), 'upload');
  const templateId = ok(
    await launcher.agent.call<Template>(saveTemplate, {
      userType: 0,
      documentId: up.documentId,
      name: '抄送模板',
      roles: [{ key: 'partyB', name: '乙方', kind: 'person', applies: {}, stepIndex: 0 }],
      fields: [],
      positions: [{ roleKey: 'partyB', page: 1, rect: [330, 130, 450, 190] }],
    }),
    'template',
  ).templateId;
  const fromTemplate = await open<{ flowId: string }>(t, 'POST', '/flows', {
    key,
    body: {
      from: 'template',
      templateId,
      title: '模板抄送',
      values: {},
      assignments: [{ roleKey: 'partyB', kind: 'person', name: signer.name, phone: signer.phone }],
      cc: [cc('模板抄送人', '13700000011', true)],
    },
  });
  expect(fromTemplate.status).toBe(201);
  const list = ok(
    await launcher.agent.call<{ list: CcRecipient[] }>(listFlowCc, {
      userType: 0,
      flowId: fromTemplate.body.data.flowId,
    }),
    'list',
  );
  expect(list.list.map((c) => c.name)).toEqual(['模板抄送人']);
  expect(await ccTokenFor('13700000011')).not.toBeNull();
  // From documents: the recipients are checked as in the workspace (422 carrying the 1100 message).
  const doc = ok(await uploadPdf(launcher.agent, await templateSourcePdf()), 'upload 2');
  const refused = await open(t, 'POST', '/flows', {
    key,
    body: {
      from: 'documents',
      title: 'API 抄送',
      documentIds: [doc.documentId],
      steps: [
        {
          parties: [
            {
              kind: 'person',
              name: signer.name,
              phone: signer.phone,
              positions: [{ documentId: doc.documentId, page: 1, rect: [330, 130, 450, 190] }],
            },
          ],
        },
      ],
      cc: [cc('签署人本人', signer.phone)],
    },
  });
  expect(refused.status).toBe(422);
  expect(refused.body.msg).toContain('签署人本人');
});
