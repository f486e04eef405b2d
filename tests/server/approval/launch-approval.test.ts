// Launch approval (发起审批, issue 27): under the company's launch rule a handler's flow is held (stored, nobody
// told, rooms refuse signing) until its approvers approve (then it is sent: links, `flow.launched` once) or one
// rejects (then it is cancelled with the comment, its quota unit released); the administrator's own launches
// are never held; the rule's amount and template conditions; self-approval; another company's approver 1101;
// a held flow that expires voids its request; only the administrator sets the rule (in the company's trail).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type ApprovalDetail,
  type ApprovalSummary,
  type LaunchPolicy,
  getApproval,
  getLaunchPolicy,
  listApprovals,
} from '#contract/calls/approval.ts';
import {
  type FlowDetail,
  type FlowSummary,
  type RoomLogin,
  getAuditTrail,
  getFlowDetail,
  listLaunchedFlows,
  listPendingSignatures,
  sendSignSmsCode,
  signingRoomLogin,
} from '#contract/calls/flow.ts';
import { type WebhookEndpoint, createWebhookEndpoint } from '#contract/calls/webhook.ts';
import { Code } from '#contract/codes.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { appForFile } from '../helper.ts';
import {
  type ApprovalCompany,
  companyWithApprovers,
  decide,
  handlerRoom,
  launchForCompany,
  saveLaunchRule,
  tryLaunchForCompany,
} from '../fixtures/approval.ts';
import { companyWithSeals, contractPdf, linkFor, ok, personWithCert, sign } from '../fixtures/flow.ts';
import { makeKey, openLaunchForOne } from '../fixtures/open.ts';
import { auditTrail, setRoles } from '../fixtures/roles.ts';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.ts';

const t = appForFile({ FREE_SIGNING_ALLOWANCE: '100' });
const HOUR = 3_600_000;
let company: ApprovalCompany;
let receiver: Receiver;

beforeAll(async () => {
  company = await companyWithApprovers(t, ['钱审批', '孙审批']);
  receiver = await startReceiver();
  const endpoint = ok(
    await company.admin.agent.call<WebhookEndpoint & { secret: string }>(createWebhookEndpoint, {
      userType: 1,
      url: receiver.url,
      events: ['flow.launched', 'flow.cancelled', 'approval.requested', 'approval.decided'],
    }),
    'endpoint',
  );
  receiver.expect(endpoint.secret, () => t.clock.now().getTime());
}, 180_000);
afterAll(async () => {
  await receiver?.close();
});

const A = () => company.approvers[0];
const B = () => company.approvers[1];
const handler = () => company.operator;

async function rule(body: Record<string, unknown>) {
  const saved = await saveLaunchRule(company.admin.agent, body);
  expect(saved.body.code, saved.body.msg).toBe(0);
  return saved.body.data;
}

/** The handler launches; answers the flow and whether it was held. */
const handlerLaunch = (opts: Parameters<typeof launchForCompany>[1] = {}) =>
  launchForCompany(company, { launcher: handler().agent, ...opts });

const detailOf = async (flowId: string) =>
  ok(await handler().agent.call<FlowDetail>(getFlowDetail, { userType: 1, flowId }), 'flow detail');

/** Signing links sent to the handler's phone for this flow's title (the outbox, newest first). */
const linksTo = async (phone: string) =>
  (await listOutbox(t.db, { to: phone, limit: 50 })).filter((m) => /\/singingRoom\//.test(m.text));

async function launchRequestOf(agent: typeof company.admin.agent, flowId: string): Promise<ApprovalSummary> {
  const list = ok(
    await agent.call<{ list: ApprovalSummary[] }>(listApprovals, {
      userType: 1,
      scope: 'toMe',
      pageNum: 1,
      pageSize: 50,
    }),
    'approvals',
  ).list;
  const found = list.find((a) => a.flowId === flowId && a.kind === 'launch');
  if (!found) throw new Error(`no launch request for ${flowId}`);
  return found;
}

const deliveries = (type: string, flowId: string) =>
  receiver.received.filter((r) => r.json.type === type && r.json.data.flowId === flowId);

describe('a handler’s launch under the launch rule', () => {
  let flowId: string;
  let approvalId: string;

  test('is held: stored, nobody gets a link, the room refuses signing, the approvers are told', async () => {
    await rule({ mode: 'one', approverIds: [A().userId], validHours: 1 });
    const linksBefore = (await linksTo(handler().phone)).length;
    const launched = await handlerLaunch({ title: '发起审批合同 Held contract' });
    flowId = launched.flowId;
    expect(launched.awaitingApproval).toBe(true);
    expect((await linksTo(handler().phone)).length).toBe(linksBefore);
    const detail = await detailOf(flowId);
    expect(detail).toMatchObject({ status: 'signing', awaitingApproval: true });
    expect(detail.mine.myPendingPartyIds).toEqual([]);
    const launchedList = ok(
      await handler().agent.call<{ list: FlowSummary[] }>(listLaunchedFlows, {
        userType: 1,
        pageNum: 1,
        pageSize: 20,
      }),
      'launched',
    ).list;
    expect(launchedList.find((f) => f.flowId === flowId)?.awaitingApproval).toBe(true);
    // Not among the handler's signatures to do, and a room opened anyway refuses the signing code.
    const pending = ok(
      await handler().agent.call<{ list: { flowId: string }[] }>(listPendingSignatures, { userType: 1 }),
      'pending',
    ).list;
    expect(pending.some((p) => p.flowId === flowId)).toBe(false);
    const partyId = detail.steps[0].parties[0].partyId;
    const room = await handler().agent.call<RoomLogin>(signingRoomLogin, { userType: 1, flowId, partyId });
    if (room.body.code === 0) {
      const code = await handler().agent.call(sendSignSmsCode, {
        userType: 0,
        roomToken: room.body.data.roomToken,
      });
      expect(code.body.code).toBe(Code.LaunchApprovalRequired);
      expect(code.body.msg).toMatch(/发起审批|launch approval/);
    } else expect(room.body.code).not.toBe(0);
    // The approver is told (SMS and the request in their list), with the contract as launched.
    const sms = await listOutbox(t.db, { to: A().phone, limit: 5 });
    expect(sms.some((m) => m.text.includes('发起审批合同'))).toBe(true);
    const summary = await launchRequestOf(A().agent, flowId);
    approvalId = summary.approvalId;
    expect(summary).toMatchObject({ kind: 'launch', status: 'pending', sealId: null, canDecide: true });
    const one = ok(await A().agent.call<ApprovalDetail>(getApproval, { userType: 1, approvalId }), 'one');
    expect(one.documents).toHaveLength(1);
    expect(one.documents[0].documentId).toBe(launched.documentId);
    expect(one.parties).toEqual([{ step: 1, kind: 'company', name: null, companyName: company.name }]);
    await t.runDueJobs();
    expect(deliveries('flow.launched', flowId)).toHaveLength(0);
    expect(deliveries('approval.requested', flowId).map((r) => r.json.data.kind)).toEqual(['launch']);
  }, 90_000);

  test('approved, it is sent: the handler gets the link, flow.launched once, the room signs', async () => {
    const decided = ok(await decide(A().agent, approvalId, 'approve', '同意发起'), 'approve');
    expect(decided.status).toBe('approved');
    expect((await detailOf(flowId)).awaitingApproval).toBe(false);
    expect(await linkFor(t, handler().phone)).toBeTruthy();
    await t.runDueJobs();
    expect(deliveries('flow.launched', flowId)).toHaveLength(1);
    expect(deliveries('approval.decided', flowId).map((r) => r.json.data)).toMatchObject([
      { kind: 'launch', status: 'approved', sealId: null },
    ]);
    // Deciding again changes nothing.
    expect((await decide(A().agent, approvalId, 'approve')).body.code).toBe(Code.Refused);
    await t.runDueJobs();
    expect(deliveries('flow.launched', flowId)).toHaveLength(1);
    const signed = await sign(t, handler().agent, await handlerRoom(company, flowId), handler().phone, {
      companySealId: company.contractSealId,
    });
    expect(signed.body.code, signed.body.msg).toBe(0);
    const trail = ok(
      await handler().agent.call<{ entries: { event: string; detail: string | null }[] }>(getAuditTrail, {
        userType: 1,
        flowId,
      }),
      'trail',
    ).entries.map((e) => e.event);
    expect(trail).toEqual(
      expect.arrayContaining(['launch', 'approval_requested', 'approval_decided', 'sign']),
    );
    // An approved launch request stays approved (it was used to send the flow), past its valid hours too.
    t.clock.advance(HOUR + 60_000);
    const later = ok(await A().agent.call<ApprovalDetail>(getApproval, { userType: 1, approvalId }), 'later');
    expect(later.status).toBe('approved');
  }, 90_000);

  test('rejected, it is cancelled with the comment, its quota unit released, the handler told', async () => {
    const { flowId: rejected } = await handlerLaunch({ title: '被驳回合同 Rejected contract' });
    const request = await launchRequestOf(A().agent, rejected);
    const noComment = await decide(A().agent, request.approvalId, 'reject');
    expect(noComment.body.code).toBe(Code.Refused);
    ok(await decide(A().agent, request.approvalId, 'reject', '金额有误'), 'reject');
    const detail = await detailOf(rejected);
    expect(detail).toMatchObject({ status: 'cancelled', endReason: '金额有误', awaitingApproval: false });
    const quota = (await t.db.execute(sql`SELECT quota_state FROM flows WHERE id = ${rejected}`)) as {
      rows: { quota_state: string }[];
    };
    expect(quota.rows[0].quota_state).toBe('released');
    const told = await listOutbox(t.db, { to: handler().phone, limit: 10 });
    expect(told.some((m) => m.text.includes('被驳回合同') && m.text.includes('金额有误'))).toBe(true);
    expect((await linksTo(handler().phone)).some((m) => m.text.includes(rejected))).toBe(false);
    await t.runDueJobs();
    expect(deliveries('flow.launched', rejected)).toHaveLength(0);
    expect(deliveries('flow.cancelled', rejected)).toHaveLength(1);
  }, 90_000);
});

describe('who and what the rule holds', () => {
  test('the administrator’s own launch is not held', async () => {
    await rule({ mode: 'one', approverIds: [A().userId] });
    const before = (await linksTo(handler().phone)).length;
    const launched = await launchForCompany(company);
    expect(launched.awaitingApproval).toBe(false);
    expect((await detailOf(launched.flowId)).awaitingApproval).toBe(false);
    expect((await linksTo(handler().phone)).length).toBe(before + 1);
  }, 60_000);

  test('an API key of the company is treated as a handler: its launch is held, nobody told', async () => {
    await rule({ mode: 'one', approverIds: [A().userId] });
    const key = (await makeKey(company.admin.agent, ['flows:read', 'flows:write'], 1)).secret;
    const buyer = await personWithCert(t, '李买方', { seal: false, cert: false });
    const res = await openLaunchForOne(t, key, await contractPdf(1), buyer, {
      page: 1,
      mm: { left: 20, top: 200, width: 36, height: 18 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ awaitingApproval: true });
    expect(await linksTo(buyer.phone)).toHaveLength(0);
    const request = await launchRequestOf(A().agent, res.body.data.flowId);
    ok(await decide(A().agent, request.approvalId, 'approve'), 'approve');
    expect(await linksTo(buyer.phone)).toHaveLength(1);
  }, 60_000);

  test('a minimum amount holds only launches from it, and those without an amount', async () => {
    await rule({ mode: 'one', approverIds: [A().userId], minAmount: 10_000 });
    expect((await handlerLaunch({ amount: 500 })).awaitingApproval).toBe(false);
    expect((await handlerLaunch({ amount: 20_000 })).awaitingApproval).toBe(true);
    expect((await handlerLaunch()).awaitingApproval).toBe(true);
  }, 90_000);

  test('listed templates hold only flows from them', async () => {
    await rule({
      mode: 'one',
      approverIds: [A().userId],
      templateIds: ['00000000-0000-4000-8000-00000000aaaa'],
    });
    expect((await handlerLaunch()).awaitingApproval).toBe(false);
  }, 60_000);

  test('mode none holds nothing', async () => {
    await rule({ mode: 'none' });
    expect((await handlerLaunch()).awaitingApproval).toBe(false);
  }, 60_000);
});

describe('self-approval, all approvers, other companies, expiry', () => {
  test('a handler who is the only approver cannot launch (self-approval off); among others they cannot decide', async () => {
    await setRoles(company.admin.agent, handler().userId, ['handler', 'approver']);
    await rule({ mode: 'one', approverIds: [handler().userId] });
    const refused = await tryLaunchForCompany(company, { launcher: handler().agent });
    expect(refused.body.code).toBe(Code.Refused);
    expect(refused.body.msg).toMatch(/own|本人/);
    await rule({ mode: 'one', approverIds: [handler().userId, A().userId] });
    const { flowId } = await handlerLaunch();
    const request = await launchRequestOf(A().agent, flowId);
    const own = await decide(handler().agent, request.approvalId, 'approve');
    expect(own.body.code).not.toBe(0);
    ok(await decide(A().agent, request.approvalId, 'approve'), 'A approves');
    expect((await detailOf(flowId)).awaitingApproval).toBe(false);
    await setRoles(company.admin.agent, handler().userId, ['handler']);
  }, 90_000);

  test('all in order: sent only when the last approver approved', async () => {
    await rule({ mode: 'all_in_order', approverIds: [A().userId, B().userId] });
    const { flowId } = await handlerLaunch();
    const request = await launchRequestOf(A().agent, flowId);
    expect((await decide(B().agent, request.approvalId, 'approve')).body.code).toBe(Code.Refused);
    ok(await decide(A().agent, request.approvalId, 'approve'), 'A');
    expect((await detailOf(flowId)).awaitingApproval).toBe(true);
    ok(await decide(B().agent, request.approvalId, 'approve'), 'B');
    expect((await detailOf(flowId)).awaitingApproval).toBe(false);
  }, 90_000);

  test('another company’s approver gets 1101', async () => {
    await rule({ mode: 'one', approverIds: [A().userId] });
    const { flowId } = await handlerLaunch();
    const request = await launchRequestOf(A().agent, flowId);
    const other = await companyWithSeals(t, '周管理');
    const read = await other.admin.agent.call(getApproval, { userType: 1, approvalId: request.approvalId });
    expect(read.body.code).toBe(Code.NotFound);
    const decided = await decide(other.admin.agent, request.approvalId, 'approve');
    expect(decided.body.code).toBe(Code.NotFound);
    expect((await detailOf(flowId)).awaitingApproval).toBe(true);
  }, 120_000);

  test('a held flow past its deadline expires and its request becomes void', async () => {
    await rule({ mode: 'one', approverIds: [A().userId], validHours: 720 });
    const deadline = new Date(t.clock.now().getTime() + HOUR / 2).toISOString();
    const { flowId } = await handlerLaunch({ deadline });
    const request = await launchRequestOf(A().agent, flowId);
    t.clock.advance(HOUR + 60_000);
    ok(
      await handler().agent.call(listLaunchedFlows, { userType: 1, pageNum: 1, pageSize: 5 }),
      'sweep by listing',
    );
    expect((await detailOf(flowId)).status).toBe('expired');
    const after = ok(
      await A().agent.call<ApprovalDetail>(getApproval, { userType: 1, approvalId: request.approvalId }),
      'after',
    );
    expect(after).toMatchObject({ status: 'void', voidReason: 'flow_ended' });
  }, 90_000);
});

describe('the rule itself', () => {
  test('only the administrator sets it; approvers read it; the change is in the company’s trail', async () => {
    const byApprover = await saveLaunchRule(A().agent, { mode: 'none' });
    expect(byApprover.body.code).not.toBe(0);
    const byHandler = await saveLaunchRule(handler().agent, { mode: 'none' });
    expect(byHandler.body.code).not.toBe(0);
    const notApprover = await saveLaunchRule(company.admin.agent, {
      mode: 'one',
      approverIds: [handler().userId],
    });
    expect(notApprover.body.code).toBe(Code.Refused);
    await rule({ mode: 'all_any_order', approverIds: [A().userId, B().userId], allowSelfApproval: true });
    const read = ok(await A().agent.call<LaunchPolicy>(getLaunchPolicy, { userType: 1 }), 'read');
    expect(read).toMatchObject({ mode: 'all_any_order', allowSelfApproval: true });
    expect(read.approvers.map((a) => a.userId)).toEqual([A().userId, B().userId]);
    const trail = await auditTrail(company.admin.agent);
    expect(trail.some((e) => e.kind === 'launch_policy_changed')).toBe(true);
  }, 60_000);
});
