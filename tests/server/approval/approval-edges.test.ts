// Seal-use approval, the edges of issue 27's "Done when": an approval serves only its flow, party, seal and
// document versions (other parties signing in parallel do not change the contract; a revised document voids
// it); it expires, undecided or unused; two approvers deciding at once give one outcome; an approver does not
// approve their own request unless the policy allows it; in order means in order; a revoked approver role
// refuses the next decision; a policy change and a flow's end void open requests (in the flow's audit trail);
// the policy's amount and template conditions; requests are rate limited; another company sees nothing.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { type ApprovalDetail, getApproval } from '#contract/calls/approval.ts';
import { setCompanyMemberRoles } from '#contract/calls/company.ts';
import { cancelFlow, getAuditTrail } from '#contract/calls/flow.ts';
import { authoriseSeal } from '#contract/calls/seal.ts';
import { Code } from '#contract/codes.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { appForFile } from '../helper.ts';
import {
  type ApprovalCompany,
  askApproval,
  companyWithApprovers,
  decide,
  handlerRoom,
  launchForCompany,
  roomApprovals,
  savePolicy,
} from '../fixtures/approval.ts';
import { companyWithSeals, ok, pendingRoom, personWithCert, sign, signByLink } from '../fixtures/flow.ts';

const t = appForFile({ FREE_SIGNING_ALLOWANCE: '100' });
let company: ApprovalCompany;
const HOUR = 3_600_000;

beforeAll(async () => {
  company = await companyWithApprovers(t, ['钱审批', '孙审批']);
}, 180_000);

const A = () => company.approvers[0];
const B = () => company.approvers[1];

async function policy(body: Record<string, unknown>, sealId = company.contractSealId) {
  const saved = await savePolicy(company.admin.agent, { sealId, ...body });
  expect(saved.body.code, saved.body.msg).toBe(0);
  return saved.body.data;
}

/** A flow for the company's party, its room, and the handler's request for the contract seal. */
async function asked(opts: Parameters<typeof launchForCompany>[1] = {}) {
  const flow = await launchForCompany(company, opts);
  const room = await handlerRoom(company, flow.flowId);
  const res = await askApproval(company.operator.agent, room.roomToken, company.contractSealId);
  expect(res.body.code, res.body.msg).toBe(0);
  return { ...flow, room, approval: res.body.data };
}

const sealWith = (room: { roomToken: string }, body = { companySealId: company.contractSealId }) =>
  sign(t, company.operator.agent, room as never, company.operator.phone, body);

const detailOf = async (approvalId: string) =>
  ok(await A().agent.call<ApprovalDetail>(getApproval, { userType: 1, approvalId }), 'detail');

describe('an approval serves only what it was asked for', () => {
  test('not another flow: the approved request of flow 1 does not let flow 2 be sealed', async () => {
    await policy({ mode: 'one', approverIds: [A().userId] });
    const one = await asked();
    ok(await decide(A().agent, one.approval.approvalId, 'approve'), 'approve');
    // Asking again once approved answers the approval, no second request.
    const again = ok(
      await askApproval(company.operator.agent, one.room.roomToken, company.contractSealId),
      'again',
    );
    expect(again).toMatchObject({ approvalId: one.approval.approvalId, status: 'approved' });
    const two = await launchForCompany(company);
    const room2 = await handlerRoom(company, two.flowId);
    const refused = await sealWith(room2);
    expect(refused.body.code).toBe(Code.SealApprovalRequired);
    expect(refused.body.data).toEqual({ sealId: company.contractSealId, approvalId: null, status: null });
    // Flow 1 itself seals.
    const signed = await sealWith(await handlerRoom(company, one.flowId));
    expect(signed.body.code, signed.body.msg).toBe(0);
    // Used once: the request is `used` and serves nothing more.
    expect((await detailOf(one.approval.approvalId)).status).toBe('used');
  }, 90_000);

  test('not another seal: a party applying two seals needs an approval for each', async () => {
    const now = t.clock.now();
    ok(
      await company.admin.agent.call(authoriseSeal, {
        userType: 1,
        sealId: company.legalPersonSealId,
        userIds: [company.operator.userId],
        validFrom: new Date(now.getTime() - 60_000).toISOString(),
        validTo: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
      }),
      'authorise',
    );
    await policy({ mode: 'one', approverIds: [A().userId] });
    await policy({ mode: 'one', approverIds: [A().userId] }, company.legalPersonSealId);
    const flow = await asked({ applies: { companySealType: 102, legalPersonSeal: true } });
    ok(await decide(A().agent, flow.approval.approvalId, 'approve'), 'approve');
    const body = { companySealId: company.contractSealId, legalPersonSealId: company.legalPersonSealId };
    const refused = await sign(t, company.operator.agent, flow.room, company.operator.phone, body);
    expect(refused.body.code).toBe(Code.SealApprovalRequired);
    const state = ok(await roomApprovals(company.operator.agent, flow.room.roomToken), 'state');
    expect(state.seals.find((s) => s.sealId === company.legalPersonSealId)?.needsApproval).toBe(true);
    expect(state.seals.find((s) => s.sealId === company.contractSealId)?.needsApproval).toBe(false);
    const second = ok(
      await askApproval(company.operator.agent, flow.room.roomToken, company.legalPersonSealId),
      'ask for the legal-person seal',
    );
    ok(await decide(A().agent, second.approvalId, 'approve'), 'approve 2');
    const signed = await sign(t, company.operator.agent, flow.room, company.operator.phone, body);
    expect(signed.body.code, signed.body.msg).toBe(0);
    await policy({ mode: 'none' }, company.legalPersonSealId);
  }, 90_000);

  test('another party signing in parallel does not change the contract; a revised document voids the approval', async () => {
    await policy({ mode: 'one', approverIds: [A().userId] });
    const buyer = await personWithCert(t, '李四');
    const flow = await asked({ alongside: [{ kind: 'person', name: buyer.name, phone: buyer.phone }] });
    ok(await decide(A().agent, flow.approval.approvalId, 'approve'), 'approve');
    // The buyer signs first: the document has a later version, a signature only.
    const bought = await signByLink(t, t.agent(), buyer);
    expect(bought.body.code, bought.body.msg).toBe(0);
    const signed = await sealWith(flow.room);
    expect(signed.body.code, signed.body.msg).toBe(0);
    expect(signed.body.data.flowStatus).toBe('completed');

    // A document changed otherwise (a version that is not a signature) voids the approval.
    const other = await asked();
    ok(await decide(A().agent, other.approval.approvalId, 'approve'), 'approve');
    await t.db.execute(sql`
      WITH moved AS (UPDATE documents SET version = version + 1 WHERE id = ${other.documentId} RETURNING id, version,
        current_key, current_sha256, current_size)
      INSERT INTO document_versions (document_id, version, blob_key, sha256, size, reason, created_at)
      SELECT id, version, current_key, current_sha256, current_size, 'revise', now() FROM moved`);
    const refused = await sealWith(other.room);
    expect(refused.body.code).toBe(Code.SealApprovalRequired);
    const voided = await detailOf(other.approval.approvalId);
    expect(voided).toMatchObject({ status: 'void', voidReason: 'document_changed' });
    // Asked again, the request binds the version as it is now.
    const again = ok(
      await askApproval(company.operator.agent, other.room.roomToken, company.contractSealId),
      'ask again',
    );
    expect(again.approvalId).not.toBe(other.approval.approvalId);
  }, 120_000);
});

describe('time, concurrency and who decides', () => {
  test('two approvers deciding at once give one outcome', async () => {
    await policy({ mode: 'one', approverIds: [A().userId, B().userId] });
    const flow = await asked();
    const [a, b] = await Promise.all([
      decide(A().agent, flow.approval.approvalId, 'approve'),
      decide(B().agent, flow.approval.approvalId, 'reject', 'not now'),
    ]);
    const codes = [a.body.code, b.body.code].sort();
    expect(codes).toEqual([0, Code.Refused]);
    const winner = a.body.code === 0 ? a : b;
    const final = await detailOf(flow.approval.approvalId);
    expect(final.status).toBe(winner.body.data.status);
    expect(final.decisions).toHaveLength(1);
  }, 60_000);

  test('an approver cannot approve their own request unless the policy allows it', async () => {
    ok(
      await company.admin.agent.call(setCompanyMemberRoles, {
        userType: 1,
        userId: company.admin.userId,
        roles: ['approver'],
      }),
      'admin approver',
    );
    // The requester the only approver, self-approval off: nobody could ever decide, so the request is refused.
    await policy({ mode: 'one', approverIds: [company.admin.userId] });
    const flow = await launchForCompany(company, { handlerPhone: company.admin.phone });
    const room = await pendingRoom(company.admin.agent, flow.flowId);
    const alone = await askApproval(company.admin.agent, room.roomToken, company.contractSealId);
    expect(alone.body.code).toBe(Code.Refused);
    expect(alone.body.msg).toContain('approve your own request');
    // With another approver: the request is made, the requester may not decide it, the other may.
    await policy({ mode: 'one', approverIds: [company.admin.userId, A().userId] });
    const mine = ok(await askApproval(company.admin.agent, room.roomToken, company.contractSealId), 'ask');
    expect(mine.canDecide).toBe(false);
    const own = await decide(company.admin.agent, mine.approvalId, 'approve');
    expect(own.body.code).toBe(Code.Refused);
    expect(own.status).toBe(602);
    expect((await detailOf(mine.approvalId)).canDecide).toBe(true);
    await policy({ mode: 'one', approverIds: [company.admin.userId], allowSelfApproval: true });
    const allowed = ok(await askApproval(company.admin.agent, room.roomToken, company.contractSealId), 'ask');
    expect(allowed.canDecide).toBe(true);
    expect((await decide(company.admin.agent, allowed.approvalId, 'approve')).body.data.status).toBe(
      'approved',
    );
    ok(
      await company.admin.agent.call(setCompanyMemberRoles, {
        userType: 1,
        userId: company.admin.userId,
        roles: [],
      }),
      'admin back',
    );
  }, 60_000);

  test('in order: the second approver waits for the first, and is told when it is their turn', async () => {
    await policy({ mode: 'all_in_order', approverIds: [A().userId, B().userId] });
    const flow = await asked();
    expect(flow.approval.approvers.map((a) => a.state)).toEqual(['waiting', 'not_yet']);
    const early = await decide(B().agent, flow.approval.approvalId, 'approve');
    expect(early.body.code).toBe(Code.Refused);
    const link = `/mobile/approvals/${flow.approval.approvalId}`;
    const toB = async () =>
      (await listOutbox(t.db, { to: B().phone, limit: 50 })).filter((m) => m.text.includes(link));
    expect(await toB()).toHaveLength(0);
    const first = ok(await decide(A().agent, flow.approval.approvalId, 'approve'), 'A');
    expect(first.status).toBe('pending');
    expect(first.approvers.map((a) => a.state)).toEqual(['approved', 'waiting']);
    expect(await toB()).toHaveLength(1);
    const second = ok(await decide(B().agent, flow.approval.approvalId, 'approve'), 'B');
    expect(second.status).toBe('approved');
  }, 60_000);

  test('a revoked approver role refuses the next decision', async () => {
    await policy({ mode: 'one', approverIds: [A().userId, B().userId] });
    const flow = await asked();
    ok(
      await company.admin.agent.call(setCompanyMemberRoles, { userType: 1, userId: A().userId, roles: [] }),
      'revoke',
    );
    const refused = await decide(A().agent, flow.approval.approvalId, 'approve');
    expect(refused.body.code).toBe(Code.Refused);
    expect(refused.status).toBe(602);
    ok(
      await company.admin.agent.call(setCompanyMemberRoles, {
        userType: 1,
        userId: A().userId,
        roles: ['approver'],
      }),
      'grant again',
    );
    expect((await decide(A().agent, flow.approval.approvalId, 'approve')).body.code).toBe(0);
  }, 60_000);
});

describe('what voids a request, and when the policy applies', () => {
  test("a policy change voids the seal's pending and approved requests", async () => {
    await policy({ mode: 'one', approverIds: [A().userId] });
    const approved = await asked();
    ok(await decide(A().agent, approved.approval.approvalId, 'approve'), 'approve');
    const pending = await asked();
    await policy({ mode: 'one', approverIds: [A().userId, B().userId] });
    for (const id of [approved.approval.approvalId, pending.approval.approvalId])
      expect(await detailOf(id)).toMatchObject({ status: 'void', voidReason: 'policy_changed' });
    expect((await sealWith(approved.room)).body.code).toBe(Code.SealApprovalRequired);
  }, 90_000);

  test("a flow's end voids its open requests, in the flow's audit trail", async () => {
    await policy({ mode: 'one', approverIds: [A().userId] });
    const flow = await asked();
    ok(
      await company.admin.agent.call(cancelFlow, { userType: 1, flowId: flow.flowId, reason: 'wrong' }),
      'cancel',
    );
    expect(await detailOf(flow.approval.approvalId)).toMatchObject({
      status: 'void',
      voidReason: 'flow_ended',
    });
    const trail = ok(
      await company.admin.agent.call<{ entries: { event: string; detail: string | null }[] }>(getAuditTrail, {
        userType: 1,
        flowId: flow.flowId,
      }),
      'trail',
    );
    expect(trail.entries.map((e) => e.event)).toEqual(
      expect.arrayContaining(['approval_requested', 'cancel', 'approval_void']),
    );
    const decided = await decide(A().agent, flow.approval.approvalId, 'approve');
    expect(decided.body.data).toEqual({ status: 'void' });
  }, 60_000);

  test('the amount and template conditions', async () => {
    await policy({ mode: 'one', approverIds: [A().userId], minAmount: 10_000 });
    const needs = async (amount?: number) => {
      const flow = await launchForCompany(company, amount === undefined ? {} : { amount });
      const room = await handlerRoom(company, flow.flowId);
      const state = ok(await roomApprovals(company.operator.agent, room.roomToken), 'state');
      return state.seals.find((s) => s.sealId === company.contractSealId)?.needsApproval;
    };
    expect(await needs(9_999.99)).toBe(false);
    expect(await needs(10_000)).toBe(true);
    // A flow without an amount counts as needing approval when a minimum is set.
    expect(await needs()).toBe(true);
    await policy({ mode: 'one', approverIds: [A().userId], templateIds: [crypto.randomUUID()] });
    expect(await needs(50_000)).toBe(false);
  }, 120_000);

  test('requests per party and seal are limited; a pending one is answered again, not doubled', async () => {
    await policy({ mode: 'one', approverIds: [A().userId] });
    const flow = await asked();
    const again = ok(
      await askApproval(company.operator.agent, flow.room.roomToken, company.contractSealId),
      'again',
    );
    expect(again.approvalId).toBe(flow.approval.approvalId);
    // Two at once make one.
    const [x, y] = await Promise.all([
      askApproval(company.operator.agent, flow.room.roomToken, company.contractSealId),
      askApproval(company.operator.agent, flow.room.roomToken, company.contractSealId),
    ]);
    expect([x.body.data.approvalId, y.body.data.approvalId]).toEqual([again.approvalId, again.approvalId]);
    let last = flow.approval.approvalId;
    let code = 0;
    for (let i = 0; i < 12 && code === 0; i++) {
      ok(await decide(A().agent, last, 'reject', `no ${i}`), 'reject');
      const res = await askApproval(company.operator.agent, flow.room.roomToken, company.contractSealId);
      code = res.body.code;
      if (code === 0) last = res.body.data.approvalId;
    }
    expect(code).toBe(Code.RateLimited);
  }, 90_000);

  test("another company's administrator sees nothing of the request (1101)", async () => {
    await policy({ mode: 'one', approverIds: [A().userId] });
    const flow = await asked();
    const stranger = await companyWithSeals(t, '周管理');
    const res = await stranger.admin.agent.call(getApproval, {
      userType: 1,
      approvalId: flow.approval.approvalId,
    });
    expect(res.body.code).toBe(Code.NotFound);
    expect((await decide(stranger.admin.agent, flow.approval.approvalId, 'approve')).body.code).toBe(
      Code.NotFound,
    );
    // A seal not authorised to the handler cannot be asked for.
    const finance = await askApproval(company.operator.agent, flow.room.roomToken, company.financeSealId);
    expect(finance.status).toBe(602);
    // Nor does the handler's co-worker without a part in it.
    const res2 = await B().agent.call(getApproval, { userType: 1, approvalId: flow.approval.approvalId });
    expect(res2.body.code).toBe(Code.NotFound);
  }, 90_000);
});

// Last: the clock moves on hours here (sessions of the members idle meanwhile would time out).
describe('time', () => {
  test('an approval expires unused after the valid hours; a pending one lapses undecided', async () => {
    await policy({ mode: 'one', approverIds: [A().userId], validHours: 1 });
    const flow = await asked();
    ok(await decide(A().agent, flow.approval.approvalId, 'approve'), 'approve');
    t.clock.advance(HOUR + 60_000);
    const refused = await sealWith(await handlerRoom(company, flow.flowId));
    expect(refused.body.code).toBe(Code.SealApprovalRequired);
    expect(refused.body.data).toMatchObject({ approvalId: flow.approval.approvalId, status: 'expired' });
    expect((await detailOf(flow.approval.approvalId)).status).toBe('expired');

    const lapsing = await asked();
    t.clock.advance(HOUR + 60_000);
    const late = await decide(A().agent, lapsing.approval.approvalId, 'approve');
    expect(late.body.code).toBe(Code.Refused);
    expect(late.body.data).toEqual({ status: 'expired' });
  }, 90_000);
});
