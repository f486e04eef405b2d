// A notice whose SMS failed for a reason that may pass is delivered again by a job (messaging.redeliver)
// with growing waits, instead of being lost: against the Aliyun stand-in, which fails twice, then
// succeeds. Waits follow the test's clock (runDueJobs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminGetMessageFailures } from '#contract/calls/messaging.ts';
import { sendSmsCode, userRegister } from '#contract/calls/session.ts';
import { messageDeliveries } from '#server/db/schema/messages.ts';
import { type Agent, type TestApp, TEST_PASSWORD, createTestApp, uniquePhone } from '../helper.ts';
import { type StandIn, aliyunError, aliyunStandIn } from '../fixtures/sms-stand-ins.ts';

const KEY_ID = 'LTAI-redeliver-key';
const KEY_SECRET = 'redeliver-secret';
const MINUTE = 60_000;

let stand: StandIn;
let t: TestApp;
let admin: Agent;

beforeAll(async () => {
  stand = await aliyunStandIn({ [KEY_ID]: KEY_SECRET });
  const adminPhone = uniquePhone();
  t = await createTestApp({
    SMS_PROVIDER: 'aliyun',
    SMS_ENDPOINT: stand.url,
    SMS_ACCESS_KEY_ID: KEY_ID,
    SMS_ACCESS_KEY_SECRET: KEY_SECRET,
    SMS_SIGN_NAME: '电子签章',
    SMS_TEMPLATE_CODE: 'SMS_100000001',
    SMS_TEMPLATE_SIGN_REQUEST: 'SMS_300000003',
    // One call per attempt: every further attempt below is the job's.
    SMS_RETRIES: '0',
    PLATFORM_ADMIN_PHONES: adminPhone,
  });
  admin = t.agent();
  expect(
    (await admin.call(sendSmsCode, { userType: 0, phone: adminPhone, purpose: 'register' })).body.code,
  ).toBe(0);
  const smsCode = (stand.received.at(-1)!.params as Record<string, string>).code;
  const reg = await admin.call(userRegister, {
    userType: 0,
    phone: adminPhone,
    password: TEST_PASSWORD,
    smsCode,
  });
  expect(reg.body.code).toBe(0);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await stand?.close();
});

const lastDelivery = async () => (await t.db.select().from(messageDeliveries)).at(-1)!;
const failuresSeen = async () =>
  (
    await admin.call<{ failures: { purpose: string; attempts: number; errorCode: string }[] }>(
      adminGetMessageFailures,
      { userType: 0 },
    )
  ).body.data.failures;

describe('redelivery of failed notices', () => {
  it('a notice the provider fails twice goes out on the third attempt, by the job, after growing waits', async () => {
    const phone = uniquePhone();
    const link = 'https://sign.example.test/#/singingRoom/1/Redeliver';
    stand.queue(aliyunError('isp.SYSTEM_ERROR', 'down'), aliyunError('isp.SYSTEM_ERROR', 'still down'));
    const before = stand.received.length;
    await t.deps.messenger.notify({
      to: phone,
      purpose: 'flow:sign_request',
      text: 'invitation',
      mail: { kind: 'sign_request', flowTitle: 'Lease 2027', who: '张发起', link },
    });
    expect(stand.received.length).toBe(before + 1);
    expect(await lastDelivery()).toMatchObject({ status: 'failed', attempts: 1, failureKind: 'temporary' });
    expect((await failuresSeen())[0]).toMatchObject({
      purpose: 'flow:sign_request',
      errorCode: 'isp.SYSTEM_ERROR',
    });

    // Not before its wait.
    await t.runDueJobs();
    expect(stand.received.length).toBe(before + 1);
    t.clock.advance(MINUTE + 1000);
    await t.runDueJobs();
    expect(stand.received.length).toBe(before + 2);
    expect(await lastDelivery()).toMatchObject({ status: 'failed', attempts: 2 });
    // The next wait is longer: nothing at once.
    await t.runDueJobs();
    expect(stand.received.length).toBe(before + 2);

    t.clock.advance(5 * MINUTE);
    await t.runDueJobs();
    expect(stand.problems).toEqual([]);
    expect(stand.received.length).toBe(before + 3);
    const r = stand.received.at(-1)!;
    expect(r.phone).toBe(phone);
    expect(r.templateId).toBe('SMS_300000003');
    expect(r.params).toEqual({ name: '张发起', title: 'Lease 2027', link });
    const row = await lastDelivery();
    expect(row).toMatchObject({ status: 'sent', attempts: 3, failureKind: null, errorCode: null });
    expect(row.messageId).toBeTruthy();
    // Delivered: no longer among the failures, and never sent again.
    expect((await failuresSeen()).some((f) => f.purpose === 'flow:sign_request')).toBe(false);
    t.clock.advance(60 * MINUTE);
    await t.runDueJobs();
    expect(stand.received.length).toBe(before + 3);
  }, 60_000);

  it('a final refusal (an invalid phone) is recorded and not tried again', async () => {
    stand.queue(aliyunError('isv.MOBILE_NUMBER_ILLEGAL', '非法手机号'));
    const before = stand.received.length;
    await t.deps.messenger.notify({
      to: uniquePhone(),
      purpose: 'flow:sign_request',
      text: 'invitation',
      mail: { kind: 'sign_request', flowTitle: 'Lease 2028', who: '张发起', link: null },
    });
    expect(await lastDelivery()).toMatchObject({
      status: 'failed',
      failureKind: 'invalid_phone',
      attempts: 1,
    });
    t.clock.advance(10 * MINUTE);
    await t.runDueJobs();
    expect(stand.received.length).toBe(before + 1);
  }, 60_000);
});
