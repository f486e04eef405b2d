import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminGetMessageFailures } from '#contract/calls/messaging.ts';
import { sendSmsCode, userRegister } from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { messageDeliveries } from '#server/db/schema/messages.ts';
import { createMessenger } from '#server/messaging/create-messenger.ts';
import { type TestApp, TEST_PASSWORD, createTestApp, uniquePhone } from '../helper.ts';
import {
  type StandIn,
  acs3Signature,
  aliyunError,
  aliyunStandIn,
  tc3Signature,
  tencentError,
  tencentStandIn,
  tencentStatusError,
} from '../fixtures/sms-stand-ins.ts';

// The stand-ins' signature checks are the providers' published algorithms: first they must reproduce the
// providers' own documented examples, or a passing request below would prove nothing.
describe('the stand-ins verify signatures as the providers publish them', () => {
  it("Aliyun ACS3-HMAC-SHA256: the documentation's RunInstances example", () => {
    const headers = {
      host: 'ecs.cn-shanghai.aliyuncs.com',
      'x-acs-action': 'RunInstances',
      'x-acs-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'x-acs-date': '2023-10-26T10:22:32Z',
      'x-acs-signature-nonce': '3156853299f313e23d1673dc12e1703d',
      'x-acs-version': '2014-05-26',
    };
    expect(
      acs3Signature({
        method: 'POST',
        path: '/',
        query: [
          ['ImageId', 'win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd'],
          ['RegionId', 'cn-shanghai'],
        ],
        headers,
        signedHeaders: Object.keys(headers),
        hashedPayload: headers['x-acs-content-sha256'],
        secret: 'YourAccessKeySecret',
      }),
    ).toBe('06563a9e1b43f5dfe96b81484da74bceab24a1d853912eee15083a6f0f3283c0');
  });

  it("Tencent TC3-HMAC-SHA256: the documentation's DescribeInstances example", () => {
    const canonicalRequest =
      'POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:cvm.tencentcloudapi.com\n\n' +
      'content-type;host\n35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064';
    expect(
      tc3Signature({
        canonicalRequest,
        timestamp: 1551113065,
        service: 'cvm',
        secretKey: 'Gu5t9xGARNpq86cd98joQYCN3*******',
      }),
    ).toBe('2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c');
  });
});

const KEY_ID = 'LTAI-test-key-id';
const KEY_SECRET = 'test-secret-never-logged';

type Provider = 'aliyun' | 'tencent';

/** An app whose SMS go to a stand-in, its administrator registered through it. */
async function appFor(provider: Provider, stand: StandIn, env: Record<string, string> = {}) {
  const adminPhone = uniquePhone();
  const t = await createTestApp({
    SMS_PROVIDER: provider,
    SMS_ENDPOINT: stand.url,
    SMS_ACCESS_KEY_ID: KEY_ID,
    SMS_ACCESS_KEY_SECRET: KEY_SECRET,
    SMS_SIGN_NAME: '电子签章',
    SMS_APP_ID: '1400000001',
    SMS_TEMPLATE_CODE: provider === 'aliyun' ? 'SMS_100000001' : '1000001',
    SMS_TEMPLATE_REGISTER: provider === 'aliyun' ? 'SMS_200000002' : '2000002',
    SMS_TEMPLATE_SIGN_REQUEST: provider === 'aliyun' ? 'SMS_300000003' : '3000003',
    SMS_TEMPLATE_DEADLINE_SOON: provider === 'aliyun' ? 'SMS_300000004' : '3000004',
    SMS_RETRY_BASE_MS: '1',
    SMS_RESEND_SECONDS: '0',
    PLATFORM_ADMIN_PHONES: adminPhone,
    ...env,
  });
  const admin = t.agent();
  const sent = await admin.call(sendSmsCode, { userType: 0, phone: adminPhone, purpose: 'register' });
  expect(sent.body.code).toBe(0);
  const smsCode = codeOf(provider, stand.received.at(-1)!.params);
  const reg = await admin.call(userRegister, {
    userType: 0,
    phone: adminPhone,
    password: TEST_PASSWORD,
    smsCode,
  });
  expect(reg.body.code).toBe(0);
  return { t, admin };
}

const codeOf = (provider: Provider, params: Record<string, string> | string[]) =>
  provider === 'aliyun' ? (params as Record<string, string>).code : (params as string[])[0];

for (const provider of ['aliyun', 'tencent'] as const) {
  describe(`SMS_PROVIDER=${provider}`, () => {
    let stand: StandIn;
    let t: TestApp;
    let admin: Awaited<ReturnType<typeof appFor>>['admin'];
    const logLines: string[] = [];

    beforeAll(async () => {
      stand =
        provider === 'aliyun'
          ? await aliyunStandIn({ [KEY_ID]: KEY_SECRET })
          : await tencentStandIn({ [KEY_ID]: KEY_SECRET });
      ({ t, admin } = await appFor(provider, stand));
      // From here on the messenger logs into memory: no line may carry a code or the secret.
      const log = pino(
        { level: 'debug' },
        new Writable({
          write(chunk, _enc, done) {
            logLines.push(String(chunk));
            done();
          },
        }),
      );
      t.deps.messenger = createMessenger({ config: t.deps.config, db: t.db, log, clock: t.clock });
    });
    afterAll(async () => {
      await t?.close();
      await stand?.close();
    });

    it("sendSmsCode sends the provider's signed SendSms with the phone, the purpose's template and the code", async () => {
      const phone = uniquePhone();
      const before = stand.received.length;
      const res = await t.agent().call(sendSmsCode, { userType: 0, phone, purpose: 'register' });
      expect(res.body.code).toBe(0);
      expect(stand.problems).toEqual([]);
      expect(stand.received.length).toBe(before + 1);
      const r = stand.received.at(-1)!;
      // Tencent wants E.164, Aliyun the bare mainland number.
      expect(r.phone).toBe(provider === 'tencent' ? `+86${phone}` : phone);
      expect(r.templateId).toBe(provider === 'aliyun' ? 'SMS_200000002' : '2000002');
      expect(r.signName).toBe('电子签章');
      const code = codeOf(provider, r.params);
      expect(code).toMatch(/^\d{6}$/);
      if (provider === 'aliyun') expect(r.params).toEqual({ code, minutes: '5' });
      else {
        expect(r.params).toEqual([code, '5']);
        expect(r.accessKeyId).toBe(`${KEY_ID}/1400000001/ap-guangzhou`);
      }
      // A purpose without its own template uses SMS_TEMPLATE_CODE.
      await t.agent().call(sendSmsCode, { userType: 0, phone, purpose: 'resetPassword' });
      // Sent like any other (no account discovery: the answer and the SMS never depend on an account).
      expect(stand.received.length).toBe(before + 2);
      expect(stand.received.at(-1)!.templateId).toBe(provider === 'aliyun' ? 'SMS_100000001' : '1000001');
      const rows = await t.db.select().from(messageDeliveries);
      const last = rows.at(-1)!;
      expect(last).toMatchObject({ channel: 'sms', provider, status: 'sent', attempts: 1, toAddr: phone });
      expect(last.messageId).toBeTruthy();
      expect(last.requestId).toMatch(/REQ/);
      // The code and the secret never reach the log.
      const log = logLines.join('');
      expect(log).toContain('sms sent');
      expect(log).not.toContain(code);
      expect(log).not.toContain(KEY_SECRET);
    });

    it('the code works for registering (it went to the provider, nowhere else)', async () => {
      const phone = uniquePhone();
      await t.agent().call(sendSmsCode, { userType: 0, phone, purpose: 'register' });
      const smsCode = codeOf(provider, stand.received.at(-1)!.params);
      const reg = await t
        .agent()
        .call(userRegister, { userType: 0, phone, password: TEST_PASSWORD, smsCode });
      expect(reg.body.code).toBe(0);
    });

    it("a notice goes out with its purpose's template and its variables; one without a template stays in-product", async () => {
      const phone = uniquePhone();
      const before = stand.received.length;
      const link = 'https://sign.example.test/#/singingRoom/1/AbCd';
      await t.deps.messenger.notify({
        to: phone,
        purpose: 'flow:sign_request',
        text: 'invitation',
        mail: { kind: 'sign_request', flowTitle: 'Lease 2026', who: '张发起', link },
      });
      expect(stand.problems).toEqual([]);
      const r = stand.received.at(-1)!;
      expect(stand.received.length).toBe(before + 1);
      expect(r.templateId).toBe(provider === 'aliyun' ? 'SMS_300000003' : '3000003');
      expect(r.params).toEqual(
        provider === 'aliyun'
          ? { name: '张发起', title: 'Lease 2026', link }
          : ['张发起', 'Lease 2026', link],
      );
      // The "deadline approaching" notice takes the deadline as its fourth variable.
      await t.deps.messenger.notify({
        to: phone,
        purpose: 'flow:deadline_soon',
        text: 'deadline soon',
        mail: {
          kind: 'deadline_soon',
          flowTitle: 'Lease 2026',
          who: '张发起',
          link,
          deadline: '2026-12-01 18:00',
        },
      });
      const d = stand.received.at(-1)!;
      expect(d.templateId).toBe(provider === 'aliyun' ? 'SMS_300000004' : '3000004');
      expect(d.params).toEqual(
        provider === 'aliyun'
          ? { name: '张发起', title: 'Lease 2026', link, deadline: '2026-12-01 18:00' }
          : ['张发起', 'Lease 2026', link, '2026-12-01 18:00'],
      );
      expect(stand.received.length).toBe(before + 2);
      // No SMS_TEMPLATE_REMIND: nothing is sent, nothing fails.
      await t.deps.messenger.notify({ to: phone, purpose: 'flow:remind', text: 'reminder' });
      expect(stand.received.length).toBe(before + 2);
    });

    it('a temporary failure is retried with backoff, then succeeds', async () => {
      if (provider === 'aliyun')
        stand.queue(
          aliyunError('isp.SYSTEM_ERROR', 'system error'),
          aliyunError('isp.SYSTEM_ERROR', 'again'),
        );
      else
        stand.queue(
          tencentError('InternalError.Timeout', 'timeout'),
          tencentError('RequestLimitExceeded', 'too many calls'),
        );
      const before = stand.received.length;
      const res = await t
        .agent()
        .call(sendSmsCode, { userType: 0, phone: uniquePhone(), purpose: 'register' });
      expect(res.body.code).toBe(0);
      expect(stand.received.length).toBe(before + 3);
      const rows = await t.db.select().from(messageDeliveries);
      expect(rows.at(-1)).toMatchObject({ status: 'sent', attempts: 3 });
    });

    const errors = {
      throttled:
        provider === 'aliyun'
          ? aliyunError('isv.BUSINESS_LIMIT_CONTROL', '触发分钟级流控Permits:1')
          : tencentStatusError('LimitExceeded.PhoneNumberThirtySecondLimit', 'thirty-second limit'),
      invalidTemplate:
        provider === 'aliyun'
          ? aliyunError('isv.SMS_TEMPLATE_ILLEGAL', '模板不合法')
          : tencentError('FailedOperation.TemplateIncorrectOrUnapproved', 'template not approved'),
      invalidPhone:
        provider === 'aliyun'
          ? aliyunError('isv.MOBILE_NUMBER_ILLEGAL', '非法手机号')
          : tencentStatusError('InvalidParameterValue.IncorrectPhoneNumber', 'incorrect phone number'),
    };
    const codes = {
      throttled:
        provider === 'aliyun' ? 'isv.BUSINESS_LIMIT_CONTROL' : 'LimitExceeded.PhoneNumberThirtySecondLimit',
      invalidTemplate:
        provider === 'aliyun' ? 'isv.SMS_TEMPLATE_ILLEGAL' : 'FailedOperation.TemplateIncorrectOrUnapproved',
      invalidPhone:
        provider === 'aliyun' ? 'isv.MOBILE_NUMBER_ILLEGAL' : 'InvalidParameterValue.IncorrectPhoneNumber',
    };

    it('throttled: not retried, the person is told in their language with the code', async () => {
      stand.queue(errors.throttled);
      const before = stand.received.length;
      const res = await t
        .agent()
        .call(
          sendSmsCode,
          { userType: 0, phone: uniquePhone(), purpose: 'register' },
          { headers: { 'accept-language': 'zh-CN' } },
        );
      expect(res.body.code).toBe(Code.SmsNotSent);
      expect(res.body.msg).toContain('过于频繁');
      expect(res.body.msg).toContain(codes.throttled);
      expect(stand.received.length).toBe(before + 1);
    });

    it('invalid template: the person is told, the administrator sees it on the failures call', async () => {
      stand.queue(errors.invalidTemplate);
      const phone = uniquePhone();
      const res = await t.agent().call(sendSmsCode, { userType: 0, phone, purpose: 'register' });
      expect(res.body.code).toBe(Code.SmsNotSent);
      expect(res.body.msg).toContain('the code could not be sent, try again later');
      const seen = await admin.call<{
        smsProvider: string;
        failures: { to: string; failureKind: string; errorCode: string; provider: string; purpose: string }[];
      }>(adminGetMessageFailures, { userType: 0 });
      expect(seen.body.code).toBe(0);
      expect(seen.body.data.smsProvider).toBe(provider);
      expect(seen.body.data.failures[0]).toMatchObject({
        provider,
        purpose: 'register',
        failureKind: 'config',
        errorCode: codes.invalidTemplate,
        to: `${phone.slice(0, 3)}****${phone.slice(-4)}`,
      });
      // Only platform administrators may look.
      const someone = t.agent();
      const p = uniquePhone();
      await someone.call(sendSmsCode, { userType: 0, phone: p, purpose: 'register' });
      const smsCode = codeOf(provider, stand.received.at(-1)!.params);
      await someone.call(userRegister, { userType: 0, phone: p, password: TEST_PASSWORD, smsCode });
      expect((await someone.call(adminGetMessageFailures, { userType: 0 })).status).toBe(602);
    });

    it('invalid phone: the person is told to check the number', async () => {
      stand.queue(errors.invalidPhone);
      const res = await t
        .agent()
        .call(sendSmsCode, { userType: 0, phone: uniquePhone(), purpose: 'register' });
      expect(res.body.code).toBe(Code.SmsNotSent);
      expect(res.body.msg).toContain('does not accept this phone number');
      expect(res.body.msg).toContain(codes.invalidPhone);
      const rows = await t.db.select().from(messageDeliveries);
      expect(rows.at(-1)).toMatchObject({ status: 'failed', failureKind: 'invalid_phone', attempts: 1 });
    });

    it('a wrong secret is refused by the stand-in (its check can fail)', async () => {
      const g = t.deps.config.smsGateway;
      if (g.provider === 'outbox') throw new Error('unexpected');
      const saved = t.deps.messenger;
      const config = {
        ...t.deps.config,
        smsGateway: { ...g, accessKeySecret: 'a-wrong-secret', retries: 0 },
      };
      t.deps.messenger = createMessenger({ config, db: t.db, log: t.deps.log, clock: t.clock });
      try {
        const res = await t
          .agent()
          .call(sendSmsCode, { userType: 0, phone: uniquePhone(), purpose: 'register' });
        expect(res.body.code).toBe(Code.SmsNotSent);
        expect(stand.problems.at(-1)).toMatch(/Signature/);
      } finally {
        stand.problems.length = 0;
        t.deps.messenger = saved;
      }
    });
  });
}
