// A company's webhook endpoints: its administrators manage them, an operator is refused (602); a flow an
// operator launches for the company is told to the company's endpoint.
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  type WebhookEndpoint,
  createWebhookEndpoint,
  listWebhookEndpoints,
} from '#contract/calls/webhook.ts';
import { type TestApp, createTestApp } from '../helper.ts';
import {
  type Signer,
  type TestCompany,
  companyWithSeals,
  launchForOne,
  ok,
  personWithCert,
} from '../fixtures/flow.ts';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.ts';

let t: TestApp;
let company: TestCompany;
let buyer: Signer;
let receiver: Receiver;

beforeAll(async () => {
  t = await createTestApp();
  company = await companyWithSeals(t);
  buyer = await personWithCert(t, '李四');
  receiver = await startReceiver();
}, 180_000);
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

test('administrators manage the company endpoints; an operator may not; company flows reach them', async () => {
  const admin = company.admin.agent;
  const made = ok(
    await admin.call<WebhookEndpoint & { secret: string }>(createWebhookEndpoint, {
      userType: 1,
      url: receiver.url,
      events: ['flow.launched'],
    }),
    'admin creates',
  );
  receiver.expect(made.secret, () => t.clock.now().getTime());
  const op = company.operator.agent;
  const refused = await op.call(createWebhookEndpoint, {
    userType: 1,
    url: receiver.url,
    events: ['flow.launched'],
  });
  expect(refused.status).toBe(602);
  expect((await op.call(listWebhookEndpoints, { userType: 1 })).status).toBe(602);
  const launched = await launchForOne(op, buyer, { userType: 1, title: 'company contract' });
  await t.runDueJobs();
  expect(receiver.received.map((r) => [r.json.type, r.json.data.flowId, r.verified])).toEqual([
    ['flow.launched', launched.flowId, true],
  ]);
}, 60_000);
