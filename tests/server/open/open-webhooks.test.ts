// /open/v1/webhooks with API keys: create (secret once), list, deliveries, redeliver, delete; a launch made
// through the API is delivered to the endpoint and verified by the README's snippet; a key without
// webhooks:manage gets 403, another account's key 404 for every id of this account.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { WebhookDelivery, WebhookEndpoint } from '#contract/calls/webhook.ts';
import { type TestApp, createTestApp } from '../helper.ts';
import { type Signer, contractPdf, ok, onePersonSteps, personWithCert, uploadPdf } from '../fixtures/flow.ts';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.ts';
import { makeKey, open } from '../fixtures/open.ts';

let t: TestApp;
let alice: Signer;
let bob: Signer;
let receiver: Receiver;
let key: string;
let bobKey: string;
let endpointId: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = await personWithCert(t, '李四');
  bob = await personWithCert(t, '王五');
  receiver = await startReceiver();
  key = (await makeKey(alice.agent, ['webhooks:manage', 'flows:write', 'flows:read'])).secret;
  bobKey = (await makeKey(bob.agent, ['webhooks:manage'])).secret;
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

describe('/open/v1/webhooks', () => {
  test('create answers 201 with the secret once; the list never shows it', async () => {
    const made = await open<WebhookEndpoint & { secret: string }>(t, 'POST', '/webhooks', {
      key,
      body: { url: receiver.url, events: ['flow.launched', 'flow.cancelled'], description: 'ERP' },
    });
    expect(made.status, made.body.msg).toBe(201);
    expect(made.body.data.secret).toMatch(/^whsec_/);
    endpointId = made.body.data.endpointId;
    receiver.expect(made.body.data.secret, () => t.clock.now().getTime());
    const list = await open<WebhookEndpoint[]>(t, 'GET', '/webhooks', { key });
    expect(list.body.data.map((e) => [e.endpointId, e.events])).toEqual([
      [endpointId, ['flow.launched', 'flow.cancelled']],
    ]);
    expect(list.raw.toString()).not.toContain(made.body.data.secret);
  });

  test('a flow launched through the API is delivered, logged and redelivered', async () => {
    const doc = ok(await uploadPdf(alice.agent, await contractPdf(1)), 'upload');
    const launched = await open<{ flowId: string }>(t, 'POST', '/flows', {
      key,
      body: {
        from: 'documents',
        title: 'api launch',
        documentIds: [doc.documentId],
        steps: onePersonSteps(doc.documentId, '王五', bob.phone),
      },
    });
    expect(launched.status, launched.body.msg).toBe(201);
    await t.runDueJobs();
    const got = receiver.received.filter((r) => r.json.data.flowId === launched.body.data.flowId);
    expect(got.map((r) => [r.json.type, r.verified])).toEqual([['flow.launched', true]]);

    const log = await open<{ list: WebhookDelivery[]; total: number }>(
      t,
      'GET',
      `/webhooks/${endpointId}/deliveries?pageSize=5`,
      { key },
    );
    expect(log.status).toBe(200);
    expect(log.body.data.total).toBe(1);
    const [delivery] = log.body.data.list;
    expect(delivery).toMatchObject({ state: 'delivered', eventId: got[0].json.id });
    const again = await open<WebhookDelivery>(
      t,
      'POST',
      `/webhooks/deliveries/${delivery.deliveryId}/redeliver`,
      {
        key,
      },
    );
    expect(again.status, again.body.msg).toBe(200);
    expect(again.body.data.attempts.map((a) => a.manual)).toEqual([false, true]);
    expect(receiver.received.at(-1)!.body).toBe(got[0].body);
  }, 60_000);

  test('without webhooks:manage: 403; another account’s key: 404 for every id, never the data', async () => {
    const narrow = (await makeKey(alice.agent, ['flows:read'])).secret;
    expect((await open(t, 'GET', '/webhooks', { key: narrow })).status).toBe(403);
    expect((await open(t, 'GET', '/webhooks')).status).toBe(401);
    const log = await open<{ list: WebhookDelivery[] }>(t, 'GET', `/webhooks/${endpointId}/deliveries`, {
      key,
    });
    const deliveryId = log.body.data.list[0].deliveryId;
    for (const [method, path] of [
      ['GET', `/webhooks/${endpointId}/deliveries`],
      ['POST', `/webhooks/deliveries/${deliveryId}/redeliver`],
      ['DELETE', `/webhooks/${endpointId}`],
    ] as const) {
      const res = await open(t, method, path, { key: bobKey });
      expect(res.status, path).toBe(404);
      expect(res.body.data, path).toBeNull();
    }
    expect((await open<WebhookEndpoint[]>(t, 'GET', '/webhooks', { key: bobKey })).body.data).toEqual([]);
  });

  test('delete removes the endpoint', async () => {
    const res = await open(t, 'DELETE', `/webhooks/${endpointId}`, { key });
    expect(res.status, res.body.msg).toBe(200);
    expect((await open<WebhookEndpoint[]>(t, 'GET', '/webhooks', { key })).body.data).toEqual([]);
    expect((await open(t, 'DELETE', `/webhooks/${endpointId}`, { key })).status).toBe(404);
  });
});
