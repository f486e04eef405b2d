// Batch signing (issue 28): a company handler signs many waiting flows with ONE intent check. Each flow is
// signed in the background exactly as its room would sign it (valid in pdfsig, its own positions), its audit
// `sign` entry naming the batch; the strictest intent check of the chosen flows is asked; a flow whose seal
// needs approval fails with 1330 while the rest are signed; another account's parties are refused; a wrong
// or replayed code signs nothing; a job killed mid-batch resumes without signing any party twice.
import { beforeAll, describe, expect, test } from 'vitest';
import {
  type BatchSignable,
  type SignBatch,
  getSignBatch,
  listBatchSignable,
  prepareSignBatch,
  startSignBatch,
  startSignBatchFace,
} from '#contract/calls/batch.ts';
import { SIGNED_PDF_PATH } from '#contract/calls/document.ts';
import { type FlowDetail, getAuditTrail, getFlowDetail } from '#contract/calls/flow.ts';
import { Code } from '#contract/codes.ts';
import { appForFile } from '../helper.ts';
import { launchForCompany, memberWithRoles, savePolicy } from '../fixtures/approval.ts';
import { type ApprovalSummary, listApprovals } from '#contract/calls/approval.ts';
import {
  type Signer,
  type TestCompany,
  answerFace,
  companyWithSeals,
  expectAllPassed,
  getBytes,
  launchForOne,
  ok,
  personWithCert,
  setSigningFaults,
} from '../fixtures/flow.ts';
import { pdfsigReport } from '../fixtures/pdf-signing.ts';

const t = appForFile({
  FREE_SIGNING_ALLOWANCE: '200',
  SMS_MAX_PER_PHONE_HOUR: '100',
  SMS_RESEND_SECONDS: '0',
});
let company: TestCompany;
let buyer: Signer;

beforeAll(async () => {
  company = await companyWithSeals(t);
  buyer = await personWithCert(t, '李四');
}, 180_000);

const handler = () => company.operator.agent;

async function launchMany(n: number, title: string, opts: Parameters<typeof launchForCompany>[1] = {}) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push((await launchForCompany(company, { title: `${title} ${i + 1}`, ...opts })).flowId);
  return ids;
}

async function signable(filters: Record<string, unknown> = {}) {
  return ok(
    await handler().call<{ list: BatchSignable[]; total: number }>(listBatchSignable, {
      userType: 1,
      pageSize: 500,
      ...filters,
    }),
    'signable',
  );
}

const partiesOf = async (flowIds: string[]) => {
  const { list } = await signable();
  return flowIds.map((id) => {
    const item = list.find((x) => x.flowId === id);
    if (!item) throw new Error(`flow ${id} is not signable`);
    return item.partyId;
  });
};

type Prepared = { batchId: string; total: number; intent: string; code: { phoneMasked: string } | null };
const prepare = (partyIds: string[], agent = handler()) =>
  agent.call<Prepared>(prepareSignBatch, {
    userType: 1,
    partyIds,
    sealChoice: { companySealId: company.contractSealId },
  });
const start = (batchId: string, body: Record<string, unknown>) =>
  handler().call<SignBatch>(startSignBatch, { userType: 1, batchId, ...body });
const batchOf = async (batchId: string, lang = 'en-US') =>
  ok(
    await handler().call<SignBatch>(
      getSignBatch,
      { userType: 1, batchId },
      { headers: { 'accept-language': lang } },
    ),
    'batch',
  );
const detailOf = async (flowId: string) =>
  ok(await company.admin.agent.call<FlowDetail>(getFlowDetail, { userType: 1, flowId }), 'detail');

/** A flow completed with the party's one signature (and the flow's document time-stamp), all valid. */
async function completedOnce(flowId: string) {
  const detail = await detailOf(flowId);
  expect(detail.status).toBe('completed');
  const pdf = await getBytes(
    company.admin.agent,
    `${SIGNED_PDF_PATH}/${flowId}/${detail.documents[0].documentId}`,
  );
  const { report, pki } = await expectAllPassed(t, pdf.bytes, 2);
  expect(report.signatures).toHaveLength(2);
  return { pdf, pki };
}

/** The flow's `sign` audit entries in a language. */
async function signEntries(flowId: string, lang: string) {
  type Trail = { entries: { event: string; detail: string | null }[] };
  const trail = await company.admin.agent.call<Trail>(
    getAuditTrail,
    { userType: 1, flowId },
    { headers: { 'accept-language': lang } },
  );
  return ok(trail, 'trail').entries.filter((e) => e.event === 'sign');
}

/** The code of the last SMS the handler got for signing (the batch's), the resend wait passed. */
async function batchCode(): Promise<string> {
  const code = await t.smsCodeFor(company.operator.phone, 'sign');
  t.clock.advance(1_000);
  return code;
}

/** Prepares, proves with the SMS code, runs the jobs: the batch as the handler reads it then. */
async function signInBatch(flowIds: string[]) {
  const prepared = ok(await prepare(await partiesOf(flowIds)), 'prepare');
  expect(prepared.intent).toBe('sms');
  const started = await start(prepared.batchId, { smsCode: await batchCode() });
  expect(started.body.code, started.body.msg).toBe(0);
  await t.runDueJobs();
  return batchOf(prepared.batchId);
}

describe('batch signing', () => {
  test('a handler signs N company flows with one SMS code: every PDF valid in pdfsig, the audit names the batch', async () => {
    const flowIds = await launchMany(3, '批量 A');
    const { list } = await signable({ keyword: '批量 A' });
    expect(list.map((x) => x.flowId).sort()).toEqual([...flowIds].sort());
    expect(list[0]).toMatchObject({ partyKind: 'company', intent: 'sms', companyName: company.name });
    const batch = await signInBatch(flowIds);
    expect(batch).toMatchObject({ status: 'done', total: 3, signed: 3, failed: 0 });
    expect(batch.items.every((i) => i.status === 'signed' && i.error === null)).toBe(true);
    for (const flowId of flowIds) {
      const { pdf, pki } = await completedOnce(flowId);
      const out = pdfsigReport(pdf.bytes, pki.rootPem, 'batch-signed.pdf');
      if (out !== null) {
        expect(out, out).not.toContain('Signature is Invalid');
        expect(out, out).toContain(`Signer Certificate Common Name: ${company.name}`);
      }
      const [en] = await signEntries(flowId, 'en-US');
      expect(en.detail).toContain(`batch ${batch.batchId} (intent proven once for the batch)`);
      expect(en.detail).toContain('intent check: SMS code');
      const [zh] = await signEntries(flowId, 'zh-CN');
      expect(zh.detail).toContain(`批量签署 ${batch.batchId}`);
    }
    // Signed flows are no longer signable.
    expect((await signable({ keyword: '批量 A' })).list).toHaveLength(0);
  }, 240_000);

  test('a flow with a stricter intent check makes the batch ask for it; an SMS code does not replace it', async () => {
    const [smsFlow] = await launchMany(1, '批量 B sms');
    const [passwordFlow] = await launchMany(1, '批量 B password', { party: { intent: 'password' } });
    const prepared = ok(await prepare(await partiesOf([smsFlow, passwordFlow])), 'prepare');
    expect(prepared.intent).toBe('password');
    expect(prepared.code).toBeNull();
    const bySms = await start(prepared.batchId, { smsCode: '123456' });
    expect(bySms.body.code).toBe(Code.IntentNotConfirmed);
    // No signing password set: refused, nothing signed.
    const byPassword = await start(prepared.batchId, { signingPassword: 'not-set-1234' });
    expect(byPassword.body.code).toBe(Code.IntentNotConfirmed);
    await t.runDueJobs();
    expect((await batchOf(prepared.batchId)).status).toBe('prepared');
    for (const id of [smsFlow, passwordFlow]) expect((await detailOf(id)).signedCount).toBe(0);
    // The face check is the strictest of all.
    const [faceFlow] = await launchMany(1, '批量 B face', { party: { intent: 'face' } });
    const withFace = ok(await prepare(await partiesOf([smsFlow, passwordFlow, faceFlow])), 'prepare');
    expect(withFace.intent).toBe('face');
  }, 120_000);

  test('a face check passed for the batch proves it once; a failed one, or one for another batch, does not', async () => {
    const [first, second] = await launchMany(2, '批量 F face', { party: { intent: 'face' } });
    const startFace = async (batchId: string) =>
      ok(
        await handler().call<{ url: string }>(startSignBatchFace, {
          userType: 1,
          batchId,
          deviceType: 'pc',
          signUrl: `/batchSign?faceBatch=${batchId}`,
        }),
        'start face',
      ).url;
    const batch = ok(await prepare(await partiesOf([first])), 'prepare');
    const other = ok(await prepare(await partiesOf([second])), 'prepare other');
    expect(batch.intent).toBe('face');
    expect(batch.code).toBeNull();
    // No face check yet, then a failed one: refused, nothing signed.
    expect((await start(batch.batchId, {})).body.code).toBe(Code.IntentNotConfirmed);
    await answerFace(t, await startFace(batch.batchId), 'failed');
    expect((await start(batch.batchId, {})).body.code).toBe(Code.IntentNotConfirmed);
    // A passed check for another batch is that batch's only.
    await answerFace(t, await startFace(other.batchId), 'passed');
    expect((await start(batch.batchId, {})).body.code).toBe(Code.IntentNotConfirmed);
    await t.runDueJobs();
    expect((await detailOf(first)).signedCount).toBe(0);
    // Passed for this batch: it starts, and the check is spent.
    await answerFace(t, await startFace(batch.batchId), 'passed');
    const started = await start(batch.batchId, {});
    expect(started.body.code, started.body.msg).toBe(0);
    await t.runDueJobs();
    expect((await batchOf(batch.batchId)).signed).toBe(1);
    await completedOnce(first);
    const [entry] = await signEntries(first, 'en-US');
    expect(entry.detail).toMatch(/face/);
    expect(entry.detail).toContain(batch.batchId);
    // The other batch's own passed check (within 10 minutes) starts it.
    ok(await start(other.batchId, {}), 'start other');
    await t.runDueJobs();
    expect((await batchOf(other.batchId)).signed).toBe(1);
    // A batch confirmed by SMS has no face check to start.
    const [smsFlow] = await launchMany(1, '批量 F sms');
    const smsBatch = ok(await prepare(await partiesOf([smsFlow])), 'prepare sms');
    const refused = await handler().call(startSignBatchFace, {
      userType: 1,
      batchId: smsBatch.batchId,
      deviceType: 'pc',
      signUrl: '/batchSign',
    });
    expect(refused.body.code).toBe(Code.Refused);
    // Another site as the return address is refused.
    const away = await handler().call(startSignBatchFace, {
      userType: 1,
      batchId: other.batchId,
      signUrl: '//evil.example/x',
    });
    expect(away.body.code).toBe(Code.BadRequest);
  }, 180_000);

  test('a flow whose seal needs approval fails with 1330 and the reason; the rest are signed', async () => {
    const approver = await memberWithRoles(t, company, '钱审批', ['approver']);
    ok(
      await savePolicy(company.admin.agent, {
        sealId: company.contractSealId,
        mode: 'one',
        approverIds: [approver.userId],
        minAmount: 10_000,
      }),
      'policy',
    );
    try {
      // A contract under the threshold is sealed without approval (one without an amount would need it).
      const plain = await launchMany(2, '批量 C', { amount: 100 });
      const [big] = await launchMany(1, '批量 C amount', { amount: 50_000 });
      const batch = await signInBatch([plain[0], big, plain[1]]);
      expect(batch, JSON.stringify(batch.items)).toMatchObject({
        status: 'done',
        total: 3,
        signed: 2,
        failed: 1,
      });
      const failed = batch.items.find((i) => i.flowId === big);
      expect(failed?.status).toBe('failed');
      expect(failed?.error?.code).toBe(Code.SealApprovalRequired);
      expect(failed?.error?.msg).toMatch(/approvers were asked/);
      const zh = await batchOf(batch.batchId, 'zh-CN');
      expect(zh.items.find((i) => i.flowId === big)?.error?.msg).toMatch(/已提交审批人/);
      // As the room's "ask for approval" would: the approver has the request, for that flow and seal.
      const asked = ok(
        await approver.agent.call<{ list: ApprovalSummary[] }>(listApprovals, {
          userType: 1,
          scope: 'toMe',
          status: 'pending',
        }),
        'approver list',
      ).list.filter((a) => a.flowId === big);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ kind: 'seal', sealId: company.contractSealId, canDecide: true });
      expect((await detailOf(big)).signedCount).toBe(0);
      for (const id of plain) expect((await detailOf(id)).status).toBe('completed');
    } finally {
      ok(
        await savePolicy(company.admin.agent, { sealId: company.contractSealId, mode: 'none' }),
        'policy off',
      );
    }
  }, 240_000);

  test("another account's party ids are refused (1101) and never signed; another's batch is not found", async () => {
    const person = await launchForOne(buyer.agent, buyer, { title: '批量 D 个人' });
    const buyerParty = (await detailOf2(buyer, person.flowId)).mine.myPendingPartyIds[0];
    const [mine] = await launchMany(1, '批量 D');
    const refused = await prepare([...(await partiesOf([mine])), buyerParty]);
    expect(refused.body.code).toBe(Code.NotFound);
    expect((await detailOf(mine)).signedCount).toBe(0);
    // The buyer's own batch, read by the handler: not found.
    const own = ok(
      await buyer.agent.call<Prepared>(prepareSignBatch, {
        userType: 0,
        partyIds: [buyerParty],
        sealChoice: { personSealId: buyer.sealId },
      }),
      'buyer prepare',
    );
    expect((await handler().call(getSignBatch, { userType: 1, batchId: own.batchId })).body.code).toBe(
      Code.NotFound,
    );
    expect(
      (await handler().call(startSignBatch, { userType: 1, batchId: own.batchId, smsCode: '123456' })).body
        .code,
    ).toBe(Code.NotFound);
  }, 120_000);

  test('a wrong SMS code signs nothing; a replayed one neither', async () => {
    const flowIds = await launchMany(2, '批量 E');
    const parties = await partiesOf(flowIds);
    const prepared = ok(await prepare(parties), 'prepare');
    const right = await batchCode();
    const wrong = right === '000000' ? '111111' : '000000';
    expect((await start(prepared.batchId, { smsCode: wrong })).body.code).toBe(Code.SmsCodeInvalid);
    await t.runDueJobs();
    expect((await batchOf(prepared.batchId)).status).toBe('prepared');
    for (const id of flowIds) expect((await detailOf(id)).signedCount).toBe(0);
    // The right code starts it once; replayed on the same batch or on another, it starts nothing.
    expect((await start(prepared.batchId, { smsCode: right })).body.code).toBe(0);
    expect((await start(prepared.batchId, { smsCode: right })).body.code).toBe(Code.Refused);
    await t.runDueJobs();
    expect((await batchOf(prepared.batchId)).signed).toBe(2);
    const [more] = await launchMany(1, '批量 E more');
    const other = ok(await prepare(await partiesOf([more])), 'prepare other');
    t.clock.advance(1_000);
    expect((await start(other.batchId, { smsCode: right })).body.code).toBe(Code.SmsCodeInvalid);
    await t.runDueJobs();
    expect((await detailOf(more)).signedCount).toBe(0);
  }, 180_000);

  test('a job killed mid-batch resumes: each party signed once', async () => {
    const flowIds = await launchMany(3, '批量 F');
    const prepared = ok(await prepare(await partiesOf(flowIds)), 'prepare');
    // The second party's signature is stored, then the worker dies before the batch records it.
    let signedSoFar = 0;
    setSigningFaults(t.deps, {
      afterLastSignature: () => {
        signedSoFar++;
        if (signedSoFar === 2) throw new Error('killed mid-batch');
      },
    });
    try {
      expect((await start(prepared.batchId, { smsCode: await batchCode() })).body.code).toBe(0);
      await t.runDueJobs();
    } finally {
      setSigningFaults(t.deps, undefined);
    }
    const cut = await batchOf(prepared.batchId);
    expect(cut.status).toBe('running');
    // The cut party is signed but not recorded: the batch counts only the others.
    expect(cut.signed).toBeLessThan(3);
    // The claim of the cut item ends, the job runs again.
    t.clock.advance(120_000);
    await t.runDueJobs();
    t.clock.advance(120_000);
    await t.runDueJobs();
    const batch = await batchOf(prepared.batchId);
    expect(batch).toMatchObject({ status: 'done', signed: 3, failed: 0 });
    for (const flowId of flowIds) await completedOnce(flowId);
  }, 240_000);
});

async function detailOf2(who: Signer, flowId: string) {
  return ok(await who.agent.call<FlowDetail>(getFlowDetail, { userType: 0, flowId }), 'detail');
}
