// Seal-use approval for integrators (issue 27): a company party's room opened by the integrator API's signing
// URL is refused the seal without approval (1330) and asks from there; the seal company's webhook endpoint
// receives approval.requested and approval.decided (verified with the README's snippet); /open/v1/approvals
// lists, shows and decides with the key acting as its administrator (a named approver), scopes enforced,
// another company's key 404.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ApprovalDetail, ApprovalSummary } from '#contract/calls/approval.ts';
import { setCompanyMemberRoles } from '#contract/calls/company.ts';
import { type RoomLogin, signingRoomLoginByEmbed } from '#contract/calls/flow.ts';
import { type WebhookEndpoint, createWebhookEndpoint } from '#contract/calls/webhook.ts';
import { Code } from '#contract/codes.ts';
import { appForFile } from '../helper.ts';
import {
  type ApprovalCompany,
  askApproval,
  companyWithApprovers,
  launchForCompany,
  savePolicy,
} from '../fixtures/approval.ts';
import { companyWithSeals, ok, sign } from '../fixtures/flow.ts';
import { makeKey, open } from '../fixtures/open.ts';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.ts';

const t = appForFile();
let company: ApprovalCompany;
let key: string;
let readOnlyKey: string;
let strangerKey: string;
let receiver: Receiver;
let flowId: string;
let room: RoomLogin;
let approvalId: string;

beforeAll(async () => {
  company = await companyWithApprovers(t, []);
  receiver = await startReceiver();
  const admin = company.admin.agent;
  ok(
    await admin.call(setCompanyMemberRoles, {
      userType: 1,
      userId: company.admin.userId,
      roles: ['approver'],
    }),
    'admin approver',
  );
  ok(
    await savePolicy(admin, {
      sealId: company.contractSealId,
      mode: 'one',
      approverIds: [company.admin.userId],
    }),
    'policy',
  );
  const endpoint = ok(
    await admin.call<WebhookEndpoint & { secret: string }>(createWebhookEndpoint, {
      userType: 1,
      url: receiver.url,
      events: ['approval.requested', 'approval.decided'],
    }),
    'endpoint',
  );
  receiver.expect(endpoint.secret, () => t.clock.now().getTime());
  key = (await makeKey(admin, ['flows:read', 'flows:write', 'approvals:read', 'approvals:write'], 1)).secret;
  readOnlyKey = (await makeKey(admin, ['approvals:read'], 1, 'read only')).secret;
  const stranger = await companyWithSeals(t, '周管理');
  strangerKey = (await makeKey(stranger.admin.agent, ['approvals:read', 'approvals:write'], 1)).secret;
}, 180_000);
afterAll(async () => {
  await receiver?.close();
});

describe('through the integrator API', () => {
  test("the signing URL's room is refused the seal without approval, and asks from there", async () => {
    ({ flowId } = await launchForCompany(company));
    const detail = await open<{ steps: { parties: { partyId: string }[] }[] }>(t, 'GET', `/flows/${flowId}`, {
      key,
    });
    const partyId = detail.body.data.steps[0].parties[0].partyId;
    const url = await open<{ url: string }>(t, 'POST', `/flows/${flowId}/parties/${partyId}/signing-url`, {
      key,
      body: {},
    });
    expect(url.status, JSON.stringify(url.body)).toBe(201);
    const code = new URLSearchParams(url.body.data.url.split('?')[1]).get('code')!;
    room = ok(
      await company.operator.agent.call<RoomLogin>(signingRoomLoginByEmbed, { userType: 0, embedCode: code }),
      'embed login',
    );
    const refused = await sign(t, company.operator.agent, room, company.operator.phone, {
      companySealId: company.contractSealId,
    });
    expect(refused.body.code).toBe(Code.SealApprovalRequired);
    approvalId = ok(
      await askApproval(company.operator.agent, room.roomToken, company.contractSealId),
      'ask',
    ).approvalId;
    await t.runDueJobs();
    expect(receiver.received.map((r) => [r.json.type, r.json.data.approvalId, r.verified])).toEqual([
      ['approval.requested', approvalId, true],
    ]);
    expect(receiver.received[0].json.data).toMatchObject({
      flowId,
      sealId: company.contractSealId,
      status: 'pending',
    });
  }, 90_000);

  test('lists and shows the request; another company’s key gets 404; deciding needs approvals:write', async () => {
    const list = await open<{ list: ApprovalSummary[]; total: number }>(
      t,
      'GET',
      '/approvals?status=pending',
      {
        key,
      },
    );
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((a) => a.approvalId)).toEqual([approvalId]);
    const one = await open<ApprovalDetail>(t, 'GET', `/approvals/${approvalId}`, { key });
    expect(one.body.data).toMatchObject({ approvalId, status: 'pending', canDecide: true });
    expect((await open(t, 'GET', `/approvals/${approvalId}`, { key: strangerKey })).status).toBe(404);
    const stranger = await open(t, 'POST', `/approvals/${approvalId}/decision`, {
      key: strangerKey,
      body: { decision: 'approve' },
    });
    expect(stranger.status).toBe(404);
    const readOnly = await open(t, 'POST', `/approvals/${approvalId}/decision`, {
      key: readOnlyKey,
      body: { decision: 'approve' },
    });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.code).toBe(Code.ApiScopeMissing);
  });

  test('the key decides as its administrator; approval.decided is delivered; the room then seals', async () => {
    const decided = await open<ApprovalDetail>(t, 'POST', `/approvals/${approvalId}/decision`, {
      key,
      body: { decision: 'approve', comment: '同意' },
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.data.status).toBe('approved');
    const again = await open(t, 'POST', `/approvals/${approvalId}/decision`, {
      key,
      body: { decision: 'approve' },
    });
    expect(again.status).toBe(422);
    expect(again.body.data).toEqual({ status: 'approved' });
    await t.runDueJobs();
    const last = receiver.received.at(-1)!;
    expect([last.json.type, last.json.data.approvalId, last.verified]).toEqual([
      'approval.decided',
      approvalId,
      true,
    ]);
    expect(last.json.data).toMatchObject({
      status: 'approved',
      decision: { decision: 'approve', comment: '同意' },
    });
    const signed = await sign(t, company.operator.agent, room, company.operator.phone, {
      companySealId: company.contractSealId,
    });
    expect(signed.body.code, signed.body.msg).toBe(0);
    expect(signed.body.data.flowStatus).toBe('completed');
  }, 60_000);
});
