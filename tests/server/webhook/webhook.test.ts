// Signed webhooks through HTTP: an endpoint made on the account, flows launched, opened, signed, refused,
// cancelled and expired, and every delivery checked by a receiver on 127.0.0.1 with the README's own
// verification snippet; retries with back-off, giving up after 24 hours, redelivery, the test event,
// another account's ids, a disabled endpoint, a rotated secret.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  type RoomLogin,
  cancelFlow,
  declineFlow,
  getFlowDetail,
  getSigningRoom,
  launchFlow,
} from '#contract/calls/flow.ts';
import {
  type WebhookDelivery,
  WEBHOOK_EVENTS,
  type WebhookEndpoint,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  rotateWebhookSecret,
  sendWebhookTestEvent,
  setWebhookEndpointEnabled,
} from '#contract/calls/webhook.ts';
import { Code } from '#contract/codes.ts';
import { flowEvent } from '#server/modules/flow/index.ts';
import { type TestApp, createTestApp } from '../helper.ts';
import {
  type Signer,
  contractPdf,
  launchForOne,
  ok,
  onePersonSteps,
  openByLink,
  personWithCert,
  sign,
  uploadPdf,
  userLogin,
} from '../fixtures/flow.ts';
import { type Receiver, documentedVerifier, startReceiver } from '../fixtures/webhook-receiver.ts';

let t: TestApp;
let alice: Signer;
let bob: Signer;
let pdf: Uint8Array;
let receiver: Receiver;
let endpoint: WebhookEndpoint & { secret: string };

beforeAll(async () => {
  t = await createTestApp({
    FREE_SIGNING_ALLOWANCE: '30',
    SMS_MAX_PER_PHONE_HOUR: '100',
    // The clock moves days ahead (expiry, 24 hours of retries): sessions must outlive that.
    SESSION_IDLE_MINUTES: String(7 * 24 * 60),
  });
  alice = await personWithCert(t, '李四');
  bob = await personWithCert(t, '王五');
  pdf = await contractPdf(1);
  receiver = await startReceiver();
}, 180_000);
/** Sessions live a day at most: the tests move the clock further, so alice and bob log in again. */
async function relogin() {
  for (const p of [alice, bob])
    ok(await p.agent.call(userLogin, { userType: 0, phone: p.phone, password: p.password }), 'login');
}
beforeEach(relogin);
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

/** Alice launches a one-party flow for bob. */
async function launchForBob(opts: { deadline?: string } = {}): Promise<string> {
  const launched = await launchForOne(
    alice.agent,
    { name: '王五', phone: bob.phone },
    { pdf, title: 'webhook test', extra: { deadline: opts.deadline } },
  );
  return launched.flowId;
}

/**
 * Runs the due jobs (deliveries) and answers what the receiver got meanwhile, in the order of the events
 * (deliveries run in parallel jobs and may arrive in any order; receivers order by createdAt).
 */
async function deliver() {
  const before = receiver.received.length;
  await t.runDueJobs();
  return receiver.received.slice(before).sort((a, b) => a.json.createdAt.localeCompare(b.json.createdAt));
}

const deliveriesOf = async (endpointId: string) => {
  await relogin();
  return ok(
    await alice.agent.call<{ list: WebhookDelivery[]; total: number }>(listWebhookDeliveries, {
      userType: 0,
      endpointId,
      pageSize: 100,
    }),
    'deliveries',
  ).list;
};

describe('endpoints', () => {
  test('an endpoint is made with a secret shown once and stored sealed', async () => {
    endpoint = ok(
      await alice.agent.call<WebhookEndpoint & { secret: string }>(createWebhookEndpoint, {
        userType: 0,
        url: receiver.url,
        description: 'test receiver',
        events: [...WEBHOOK_EVENTS],
      }),
      'create',
    );
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    receiver.expect(endpoint.secret, () => t.clock.now().getTime());
    const list = ok(await alice.agent.call<WebhookEndpoint[]>(listWebhookEndpoints, { userType: 0 }), 'list');
    expect(list.map((e) => e.endpointId)).toEqual([endpoint.endpointId]);
    expect(JSON.stringify(list)).not.toContain(endpoint.secret);
    const stored = await t.db.execute(sql`SELECT * FROM webhook_endpoints`);
    expect(JSON.stringify(stored)).not.toContain(endpoint.secret.slice(6));
  });

  test('a URL that is not http(s) or no events are refused', async () => {
    const bad = await alice.agent.call(createWebhookEndpoint, {
      userType: 0,
      url: 'ftp://x.test/',
      events: ['flow.launched'],
    });
    expect(bad.body.code).not.toBe(0);
    const none = await alice.agent.call(createWebhookEndpoint, {
      userType: 0,
      url: receiver.url,
      events: [],
    });
    expect(none.body.code).not.toBe(0);
    expect(none.body.msg).toMatch(/at least one event/);
  });
});

describe('flow events arrive signed', () => {
  let flowId: string;
  test('launch, the room opened, the signature and completion: each delivered once, verified', async () => {
    flowId = await launchForBob();
    const launched = await deliver();
    expect(launched.map((r) => r.json.type)).toEqual(['flow.launched']);
    expect(launched[0].verified).toBe(true);
    expect(launched[0].json.data).toMatchObject({ flowId, title: 'webhook test', status: 'signing' });
    expect(launched[0].headers['x-esign-event-id']).toBe(launched[0].json.id);

    const agent = t.agent();
    const room: RoomLogin = await openByLink(t, agent, bob.phone);
    ok(await agent.call(getSigningRoom, { userType: 0, roomToken: room.roomToken }), 'room');
    ok(await agent.call(getSigningRoom, { userType: 0, roomToken: room.roomToken }), 'room again');
    const opened = await deliver();
    expect(opened.map((r) => r.json.type)).toEqual(['party.opened']);
    expect(opened[0].json.data.party).toMatchObject({ name: '王五', kind: 'person', step: 1 });

    ok(await sign(t, agent, room, bob.phone, { personSealId: bob.sealId! }), 'bob signs');
    const done = await deliver();
    expect(done.map((r) => r.json.type)).toEqual(['party.signed', 'flow.completed']);
    expect(done.every((r) => r.verified)).toBe(true);
    expect(done[1].json.data).toMatchObject({ flowId, status: 'completed' });
    // What the launching account sees, never a signer's phone.
    for (const r of [...launched, ...opened, ...done]) expect(r.body).not.toContain(bob.phone);
    expect(new Set([...launched, ...opened, ...done].map((r) => r.json.id)).size).toBe(4);
  }, 60_000);

  test('a refusal, a cancel, an expiry on access and one by the sweep job', async () => {
    const declined = await launchForBob();
    const room = await openByLink(t, t.agent(), bob.phone);
    ok(
      await t.agent().call(declineFlow, { userType: 0, roomToken: room.roomToken, reason: 'price' }),
      'decline',
    );
    const cancelled = await launchForBob();
    ok(
      await alice.agent.call(cancelFlow, { userType: 0, flowId: cancelled, reason: 'wrong terms' }),
      'cancel',
    );
    const deadline = new Date(t.clock.now().getTime() + 2 * 86_400_000).toISOString();
    const expiring = await launchForBob({ deadline });
    const swept = await launchForBob({ deadline });
    t.clock.advance(3 * 86_400_000);
    await relogin();
    ok(await alice.agent.call(getFlowDetail, { userType: 0, flowId: expiring }), 'detail');
    const got = (await deliver()).filter((r) => r.json.type !== 'flow.launched');
    expect(got.every((r) => r.verified)).toBe(true);
    expect(got.map((r) => [r.json.type, r.json.data.flowId])).toEqual([
      ['party.refused', declined],
      ['flow.cancelled', cancelled],
      ['flow.expired', expiring], // on access (the detail)
      ['flow.expired', swept], // by the flow.sweep job, which nobody's request ran
    ]);
    expect(got[0].json.data).toMatchObject({ reason: 'price', party: { name: '王五', status: 'declined' } });
    expect(got[1].json.data).toMatchObject({ reason: 'wrong terms', status: 'cancelled' });
  }, 60_000);
});

describe('retries and redelivery', () => {
  test('the receiver fails twice: retried after 30 s and 1 min, then delivered; 3 attempts in the log', async () => {
    receiver.failNext(500, 503);
    const flowId = await launchForBob();
    expect((await deliver()).map((r) => r.json.data.flowId)).toEqual([flowId]);
    expect(await deliver()).toEqual([]); // not due yet
    t.clock.advance(30_000);
    expect(await deliver()).toHaveLength(1);
    t.clock.advance(30_000);
    expect(await deliver()).toEqual([]); // the second delay is 1 minute
    t.clock.advance(30_000);
    const third = await deliver();
    expect(third).toHaveLength(1);
    expect(third[0].verified).toBe(true);
    const log = (await deliveriesOf(endpoint.endpointId)).find((d) => d.eventId === third[0].json.id)!;
    expect(log.state).toBe('delivered');
    expect(log.attempts.map((a) => [a.ok, a.responseCode])).toEqual([
      [false, 500],
      [false, 503],
      [true, 200],
    ]);
    expect(log.attempts.every((a) => a.durationMs >= 0 && !a.manual)).toBe(true);
  }, 60_000);

  test('a delivery job that cannot be queued: the launch still succeeds and the sweep delivers', async () => {
    const jobs = t.deps.jobs as { send: typeof t.deps.jobs.send };
    const send = jobs.send;
    jobs.send = async () => {
      throw new Error('job system unreachable');
    };
    let flowId: string;
    try {
      flowId = await launchForBob();
    } finally {
      jobs.send = send;
    }
    const got = await deliver(); // only the webhook.sweep cron job runs: no webhook.deliver job was queued
    expect(got.map((r) => [r.json.type, r.json.data.flowId, r.verified])).toEqual([
      ['flow.launched', flowId, true],
    ]);
  }, 60_000);

  test("the event is stored in the change's own transaction: no change without its event", async () => {
    // One more listener of flow's events, failing while `failing` is set: the event cannot be stored.
    let failing = true;
    t.deps.hooks.on(flowEvent, () => {
      if (failing) throw new Error('the outbox cannot be written');
      return null;
    });
    const count = async (table: 'flows' | 'webhook_messages') =>
      (await t.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table}`))) as unknown as {
        rows: { n: number }[];
      };
    const before = [(await count('flows')).rows[0].n, (await count('webhook_messages')).rows[0].n];
    const doc = ok(await uploadPdf(alice.agent, pdf), 'upload');
    let res: Awaited<ReturnType<typeof alice.agent.call>>;
    try {
      res = await alice.agent.call(launchFlow, {
        userType: 0,
        title: 'outbox test',
        documentIds: [doc.documentId],
        steps: onePersonSteps(doc.documentId, '王五', bob.phone),
      });
    } finally {
      failing = false;
    }
    expect(res.body.code).not.toBe(0);
    // The launch was undone with its event: no flow, no message, nothing to deliver.
    expect([(await count('flows')).rows[0].n, (await count('webhook_messages')).rows[0].n]).toEqual(before);
    expect(await deliver()).toEqual([]);
    // The same launch again, with the outbox writable: the flow and its event, delivered.
    const flowId = ok(
      await alice.agent.call<{ flowId: string }>(launchFlow, {
        userType: 0,
        title: 'outbox test',
        documentIds: [doc.documentId],
        steps: onePersonSteps(doc.documentId, '王五', bob.phone),
      }),
      'launch',
    ).flowId;
    expect((await deliver()).map((r) => [r.json.type, r.json.data.flowId])).toEqual([
      ['flow.launched', flowId],
    ]);
  }, 60_000);

  test('a redelivery sends the same event and body again, signed now, as a manual attempt', async () => {
    const [latest] = await deliveriesOf(endpoint.endpointId);
    const first = receiver.received.find((r) => r.json.id === latest.eventId)!;
    t.clock.advance(10 * 60_000); // the first signature is now outside the replay window
    expect(documentedVerifier()(endpoint.secret, first.headers, first.body, t.clock.now().getTime())).toBe(
      false,
    );
    const again = ok(
      await alice.agent.call<WebhookDelivery>(redeliverWebhook, {
        userType: 0,
        deliveryId: latest.deliveryId,
      }),
      'redeliver',
    );
    const last = receiver.received.at(-1)!;
    expect(last.body).toBe(first.body);
    expect(last.headers['x-esign-event-id']).toBe(latest.eventId);
    expect(last.verified).toBe(true);
    expect(again.attempts.at(-1)).toMatchObject({ ok: true, responseCode: 200, manual: true });
  });

  test('a receiver that never answers 2xx is retried with growing delays and given up after 24 hours', async () => {
    receiver.failNext(...Array(40).fill(500));
    const flowId = await launchForBob();
    await deliver();
    let delivery: WebhookDelivery | undefined;
    for (let i = 0; i < 40; i++) {
      delivery = (await deliveriesOf(endpoint.endpointId)).find((d) => d.type === 'flow.launched')!;
      if (delivery.state !== 'pending') break;
      t.clock.advance(new Date(delivery.nextAttemptAt!).getTime() - t.clock.now().getTime());
      await deliver();
    }
    receiver.failNext();
    const times = delivery!.attempts.map((a) => new Date(a.at).getTime());
    // The test clock runs on real time too: each delay is the schedule's plus the seconds an attempt took
    // (more on a loaded machine), never less.
    const delays = times.slice(1).map((at, i) => Math.floor((at - times[i]) / 1000));
    const late = (seen: number, planned: number) => seen >= planned && seen <= planned + 5;
    expect(JSON.parse(receiver.received.at(-1)!.body).data.flowId).toBe(flowId);
    expect(delivery!.state).toBe('failed');
    const planned = [30, 60, 120, 240, 480];
    expect(delays.slice(0, 5).every((d, i) => late(d, planned[i]))).toBe(true);
    expect(late(Math.max(...delays), 7200)).toBe(true);
    const span = new Date(delivery!.attempts.at(-1)!.at).getTime() - new Date(delivery!.createdAt).getTime();
    expect(span).toBeGreaterThanOrEqual(24 * 3_600_000 - 1000);
    expect(span).toBeLessThan(24 * 3_600_000 + 60_000);
  }, 120_000);
});

describe('the test event, a disabled endpoint, a rotated secret', () => {
  test('the test event is sent at once and logged', async () => {
    const d = ok(
      await alice.agent.call<WebhookDelivery>(sendWebhookTestEvent, {
        userType: 0,
        endpointId: endpoint.endpointId,
      }),
      'test event',
    );
    expect(d.type).toBe('webhook.test');
    expect(d.state).toBe('delivered');
    expect(receiver.received.at(-1)!.json.type).toBe('webhook.test');
    expect(receiver.received.at(-1)!.verified).toBe(true);
  });

  test('a disabled endpoint is told nothing; enabled again, it is', async () => {
    ok(
      await alice.agent.call(setWebhookEndpointEnabled, {
        userType: 0,
        endpointId: endpoint.endpointId,
        enabled: false,
      }),
      'disable',
    );
    await launchForBob();
    expect(await deliver()).toEqual([]);
    ok(
      await alice.agent.call(setWebhookEndpointEnabled, {
        userType: 0,
        endpointId: endpoint.endpointId,
        enabled: true,
      }),
      'enable',
    );
    await launchForBob();
    expect((await deliver()).map((r) => r.json.type)).toEqual(['flow.launched']);
  });

  test('after a rotation deliveries are signed with the new secret only', async () => {
    const rotated = ok(
      await alice.agent.call<{ secret: string }>(rotateWebhookSecret, {
        userType: 0,
        endpointId: endpoint.endpointId,
      }),
      'rotate',
    );
    expect(rotated.secret).not.toBe(endpoint.secret);
    await launchForBob();
    const [withOld] = await deliver();
    expect(withOld.verified).toBe(false);
    const verify = documentedVerifier();
    expect(verify(rotated.secret, withOld.headers, withOld.body, t.clock.now().getTime())).toBe(true);
    endpoint = { ...endpoint, secret: rotated.secret };
    receiver.expect(rotated.secret, () => t.clock.now().getTime());
  });

  test('a tampered body or signature fails the documented check', async () => {
    const r = receiver.received.at(-1)!;
    const verify = documentedVerifier();
    const now = t.clock.now().getTime();
    expect(verify(endpoint.secret, r.headers, r.body, now)).toBe(true);
    expect(verify(endpoint.secret, r.headers, r.body.replace('webhook test', 'webhook tesT'), now)).toBe(
      false,
    );
    const sig = String(r.headers['x-esign-signature']);
    const flipped = sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0');
    expect(verify(endpoint.secret, { ...r.headers, 'x-esign-signature': flipped }, r.body, now)).toBe(false);
    expect(verify(endpoint.secret, { ...r.headers, 'x-esign-timestamp': undefined }, r.body, now)).toBe(
      false,
    );
  });
});

describe("another account's ids", () => {
  test('are not found: deliveries, enable, rotate, delete, redeliver, test event', async () => {
    const id = endpoint.endpointId;
    const [delivery] = await deliveriesOf(id);
    const b = bob.agent;
    for (const res of [
      await b.call(listWebhookDeliveries, { userType: 0, endpointId: id }),
      await b.call(setWebhookEndpointEnabled, { userType: 0, endpointId: id, enabled: false }),
      await b.call(rotateWebhookSecret, { userType: 0, endpointId: id }),
      await b.call(deleteWebhookEndpoint, { userType: 0, endpointId: id }),
      await b.call(sendWebhookTestEvent, { userType: 0, endpointId: id }),
      await b.call(redeliverWebhook, { userType: 0, deliveryId: delivery.deliveryId }),
    ])
      expect(res.body.code).toBe(Code.NotFound);
    expect(ok(await b.call<WebhookEndpoint[]>(listWebhookEndpoints, { userType: 0 }), 'bob list')).toEqual(
      [],
    );
    // Bob's own flows tell alice's endpoint nothing.
    const before = receiver.received.length;
    await launchForOne(b, { name: '李四', phone: alice.phone }, { pdf, title: 'bob launches' });
    await t.runDueJobs();
    expect(receiver.received.length).toBe(before);
  });

  test('deleting an endpoint removes it and its log', async () => {
    ok(
      await alice.agent.call(deleteWebhookEndpoint, { userType: 0, endpointId: endpoint.endpointId }),
      'delete',
    );
    expect(
      ok(await alice.agent.call<WebhookEndpoint[]>(listWebhookEndpoints, { userType: 0 }), 'list'),
    ).toEqual([]);
    const left = await t.db.execute(sql`SELECT count(*)::int AS n FROM webhook_messages`);
    expect((left as unknown as { rows: { n: number }[] }).rows[0].n).toBe(0);
  });
});
