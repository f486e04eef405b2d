// The flow's background work, fired by the job system (the flow.sweep cron job) with the test's clock:
// a flow past its deadline expires without anyone opening it and its quota unit is released; "remind every
// N days" reminds the unsigned parties until the flow ends. Everything is read through the SPA's calls.
import { beforeAll, describe, expect, test } from 'vitest';
import {
  type FlowDetail,
  cancelFlow,
  getAuditTrail,
  getFlowDetail,
  getQuota,
  listMessages,
} from '#contract/calls/flow.ts';
import { Code } from '#contract/codes.ts';
import { userLogin } from '#contract/calls/session.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { type Agent, appForFile } from '../helper.ts';
import { type Signer, contractPdf, ok, personWithCert, tryLaunchForOne } from '../fixtures/flow.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const t = appForFile({ FREE_SIGNING_ALLOWANCE: '10' });
let alice: Signer;
let bob: Signer;
let pdf: Uint8Array;

beforeAll(async () => {
  alice = await personWithCert(t, '李四');
  bob = await personWithCert(t, '王五');
  pdf = await contractPdf(1);
}, 180_000);

/** A fresh login of a signer: the test's clock moves days on, past a session's 24-hour lifetime. */
async function loggedIn(s: Signer): Promise<Agent> {
  const agent = t.agent();
  ok(await agent.call(userLogin, { userType: 0, phone: s.phone, password: s.password }), 'login');
  return agent;
}

/** Alice launches a flow for Bob with the given extra launch fields. */
async function launchForBob(extra: Record<string, unknown>) {
  const agent = await loggedIn(alice);
  return tryLaunchForOne(agent, { name: '王五', phone: bob.phone }, { pdf, title: 'jobs test', extra });
}

const detailOf = async (s: Signer, flowId: string) =>
  ok(await (await loggedIn(s)).call<FlowDetail>(getFlowDetail, { userType: 0, flowId }), 'detail');
const quotaOf = async () =>
  ok(
    await (await loggedIn(alice)).call<{ reserved: number; used: number; remaining: number }>(getQuota, {
      userType: 0,
    }),
    'quota',
  );
const remindersToBob = async () =>
  (await listOutbox(t.db, { to: bob.phone, limit: 200 })).filter((m) =>
    m.text.includes('reminds you to sign'),
  ).length;

describe('flow jobs', () => {
  test('a flow past its deadline expires by the sweep job, nobody opening it, and its quota unit is released', async () => {
    const before = await quotaOf();
    const deadline = new Date(t.clock.now().getTime() + HOUR).toISOString();
    const { flowId } = ok(await launchForBob({ deadline }), 'launch');
    expect(await quotaOf()).toMatchObject({ reserved: before.reserved + 1, remaining: before.remaining - 1 });

    t.clock.advance(2 * HOUR);
    // Nobody has opened the flow: its unit is still held.
    expect((await quotaOf()).reserved).toBe(before.reserved + 1);
    await t.runDueJobs();
    expect(await quotaOf()).toMatchObject({ reserved: before.reserved, remaining: before.remaining });

    expect((await detailOf(alice, flowId)).status).toBe('expired');
    const bobs = await detailOf(bob, flowId);
    expect(bobs.status).toBe('expired');
    expect(bobs.mine.myPendingPartyIds).toEqual([]);
    // Both were told.
    const messagesOf = async (s: Signer) =>
      ok(
        await (await loggedIn(s)).call<{ list: { kind: string; flowId: string | null }[] }>(listMessages, {
          userType: 0,
          pageNum: 1,
          pageSize: 50,
        }),
        'messages',
      )
        .list.filter((m) => m.flowId === flowId)
        .map((m) => m.kind);
    expect(await messagesOf(alice)).toContain('expired');
    expect(await messagesOf(bob)).toContain('expired');
  }, 120_000);

  test('"remind every N days" reminds the unsigned party every N days until the flow ends', async () => {
    const launchedAt = t.clock.now().getTime();
    const { flowId } = ok(
      await launchForBob({ remindEveryDays: 2, deadline: new Date(launchedAt + 30 * DAY).toISOString() }),
      'launch',
    );
    const first = await detailOf(alice, flowId);
    expect(first.remindEveryDays).toBe(2);
    expect(Date.parse(first.nextRemindAt!) - launchedAt).toBeGreaterThanOrEqual(2 * DAY - 5000);
    expect(Date.parse(first.nextRemindAt!) - launchedAt).toBeLessThan(2 * DAY + 60_000);
    const sent = await remindersToBob();

    t.clock.advance(DAY);
    await t.runDueJobs();
    expect(await remindersToBob()).toBe(sent);

    t.clock.advance(DAY + 60_000);
    await t.runDueJobs();
    expect(await remindersToBob()).toBe(sent + 1);
    const second = await detailOf(alice, flowId);
    expect(second.steps[0].parties[0].lastRemindedAt).not.toBeNull();
    expect(Date.parse(second.nextRemindAt!) - t.clock.now().getTime()).toBeGreaterThan(2 * DAY - 60_000);
    // The same minute again sends nothing more.
    await t.runDueJobs();
    expect(await remindersToBob()).toBe(sent + 1);

    t.clock.advance(2 * DAY);
    await t.runDueJobs();
    expect(await remindersToBob()).toBe(sent + 2);

    ok(
      await (await loggedIn(alice)).call(cancelFlow, { userType: 0, flowId, reason: 'no longer needed' }),
      'cancel',
    );
    expect((await detailOf(alice, flowId)).nextRemindAt).toBeNull();
    t.clock.advance(3 * DAY);
    await t.runDueJobs();
    expect(await remindersToBob()).toBe(sent + 2);
  }, 120_000);

  test('a launch without remindEveryDays plans no reminder; one outside 1-30 days is refused', async () => {
    const { flowId } = ok(await launchForBob({}), 'launch');
    expect(await detailOf(alice, flowId)).toMatchObject({ remindEveryDays: null, nextRemindAt: null });
    for (const remindEveryDays of [0, 31, 1.5]) {
      const res = await launchForBob({ remindEveryDays });
      expect(res.body.code).toBe(Code.BadRequest);
    }
  }, 120_000);

  test('a day before the deadline the unsigned party is told once, with the deadline; not for a flow launched that close', async () => {
    const launchedAt = t.clock.now().getTime();
    const deadline = new Date(launchedAt + 3 * DAY);
    const { flowId } = ok(await launchForBob({ deadline: deadline.toISOString() }), 'launch');
    const close = ok(
      await launchForBob({ deadline: new Date(launchedAt + 20 * HOUR).toISOString() }),
      'launch close',
    ).flowId;
    const kindsFor = async (s: Signer, id: string) =>
      ok(
        await (await loggedIn(s)).call<{ list: { kind: string; flowId: string | null; text: string }[] }>(
          listMessages,
          { userType: 0, pageNum: 1, pageSize: 50 },
        ),
        'messages',
      ).list.filter((m) => m.flowId === id);
    const deadlineSms = async () =>
      (await listOutbox(t.db, { to: bob.phone, limit: 200 })).filter((m) =>
        m.text.includes('can be signed until'),
      );
    const before = (await deadlineSms()).length;

    // Two days before: nothing yet.
    t.clock.advance(DAY);
    await t.runDueJobs();
    expect((await kindsFor(bob, flowId)).map((m) => m.kind)).not.toContain('deadline_soon');

    // 23 hours before: told, with the deadline in Beijing time, and a link to the room.
    t.clock.advance(DAY + HOUR);
    await t.runDueJobs();
    const told = (await kindsFor(bob, flowId)).filter((m) => m.kind === 'deadline_soon');
    expect(told).toHaveLength(1);
    const beijing = new Date(deadline.getTime() + 8 * HOUR).toISOString().slice(0, 16).replace('T', ' ');
    expect(told[0].text).toContain(`将于${beijing}（北京时间）截止签署`);
    expect(told[0].text).toContain(`can be signed until ${beijing} (Beijing time, UTC+8)`);
    const sms = await deadlineSms();
    expect(sms.length).toBe(before + 1);
    expect(sms.at(-1)!.text).toMatch(/#\/singingRoom\/\d+\/[\w-]+$/);
    // The launcher's audit trail says the platform told Bob.
    const trail = ok(
      await (await loggedIn(alice)).call<{
        entries: { event: string; actor: string; detail: string | null }[];
      }>(getAuditTrail, { userType: 0, flowId }),
      'trail',
    );
    expect(trail.entries).toContainEqual(
      expect.objectContaining({
        event: 'remind',
        actor: 'platform',
        detail: expect.stringContaining('deadline notice'),
      }),
    );

    // Once only: later sweeps before the deadline send nothing more.
    t.clock.advance(2 * HOUR);
    await t.runDueJobs();
    expect((await kindsFor(bob, flowId)).filter((m) => m.kind === 'deadline_soon')).toHaveLength(1);
    expect((await deadlineSms()).length).toBe(before + 1);
    // The flow launched 20 hours before its deadline (the invitation was the notice) got none, and expired.
    expect((await kindsFor(bob, close)).map((m) => m.kind)).not.toContain('deadline_soon');
    expect((await detailOf(alice, close)).status).toBe('expired');
  }, 120_000);
});
