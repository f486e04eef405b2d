// Issue 16: no call that takes a phone before a proof of ownership tells whether the phone has an
// account. For each, a registered and an unregistered phone get the same answer (code, message, data)
// and take about as long; once the SMS code has proven the phone, the answer may say so, kindly.
import { describe, expect, it } from 'vitest';
import {
  resetPassword,
  sendSmsCode,
  userLogin,
  userOperatorLogin,
  userRegister,
} from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { ROOM_SMS_PURPOSES, SmsPurpose } from '#contract/enums.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { type CallResult, registerAndLogin, uniquePhone, appForFile } from './helper.ts';
import { partnerLogin, tokenFor } from './fixtures/partner.ts';

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

// Resend waits, per-phone limits and locks would end the repeated calls below before they say anything.
const t = appForFile({
  SMS_RESEND_SECONDS: '0',
  SMS_MAX_PER_PHONE_HOUR: '10000',
  SMS_MAX_WRONG: '100',
  LOGIN_MAX_FAILED_PER_PHONE: '1000',
});

const zh = { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } };
const LANGS = [{}, zh];
const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');
const answerOf = (r: CallResult) => ({ status: r.status, body: r.body });

/** A registered phone and a phone no account uses. */
async function twoPhones() {
  const { phone: registered } = await registerAndLogin(t);
  return { registered, unregistered: uniquePhone() };
}

/**
 * Calls `call` for both phones, interleaved so that load on the machine hits both alike, and compares
 * the medians with a generous bound: the point is to catch work done for one kind of phone only (an
 * argon2 hash, an SMS not sent), not to time anything precisely.
 */
async function expectSimilarTiming(
  phones: { registered: string; unregistered: string },
  call: (phone: string) => Promise<unknown>,
  rounds = 9,
) {
  const times: Record<'registered' | 'unregistered', number[]> = { registered: [], unregistered: [] };
  for (let i = 0; i < rounds; i++) {
    const order =
      i % 2 ? (['registered', 'unregistered'] as const) : (['unregistered', 'registered'] as const);
    for (const kind of order) {
      const started = performance.now();
      await call(phones[kind]);
      times[kind].push(performance.now() - started);
    }
  }
  const a = median(times.registered);
  const b = median(times.unregistered);
  expect(Math.abs(a - b), `medians ${a.toFixed(1)} ms vs ${b.toFixed(1)} ms`).toBeLessThanOrEqual(
    Math.max(25, 0.5 * Math.max(a, b)),
  );
}

describe('sendSmsCode', () => {
  it('answers the same for a registered and an unregistered phone, whatever the purpose', async () => {
    const phones = await twoPhones();
    for (const purpose of Object.values(SmsPurpose)) {
      for (const lang of LANGS) {
        const a = await t.agent().call(sendSmsCode, { userType: 0, phone: phones.registered, purpose }, lang);
        const b = await t
          .agent()
          .call(sendSmsCode, { userType: 0, phone: phones.unregistered, purpose }, lang);
        expect(answerOf(a), purpose).toEqual(answerOf(b));
        // The signing room's own codes are never sent by the public call (issue 23), for any phone alike.
        expect(a.body.code, purpose).toBe(ROOM_SMS_PURPOSES.includes(purpose) ? Code.BadRequest : Code.Ok);
      }
    }
  });

  it('register on a registered phone succeeds; the SMS itself tells its owner to log in', async () => {
    const { registered, unregistered } = await twoPhones();
    await t.agent().call(sendSmsCode, { userType: 0, phone: registered, purpose: 'register' });
    await t.agent().call(sendSmsCode, { userType: 0, phone: unregistered, purpose: 'register' });
    const [toRegistered] = await listOutbox(t.db, { to: registered, limit: 1 });
    const [toUnregistered] = await listOutbox(t.db, { to: unregistered, limit: 1 });
    expect(toRegistered.text).toMatch(
      /already has an account: log in or reset your password at .*#\/loginPage/,
    );
    expect(toRegistered.text).toMatch(/该手机号已有账号/);
    expect(toRegistered.code).toMatch(/^\d{6}$/);
    expect(toUnregistered.text).not.toMatch(/account/);
  });

  it('login and reset codes reach an unregistered phone too, telling its owner to register', async () => {
    const phone = uniquePhone();
    for (const purpose of ['login', 'resetPassword']) {
      await t.agent().call(sendSmsCode, { userType: 0, phone, purpose });
      const [sms] = await listOutbox(t.db, { to: phone, limit: 1 });
      expect(sms.purpose).toBe(purpose);
      expect(sms.text).toMatch(/No account uses this number yet; register at .*#\/registerPage/);
      expect(sms.text).toMatch(/尚未注册账号/);
    }
  });

  it('takes about as long for either phone', async () => {
    const phones = await twoPhones();
    for (const purpose of ['register', 'login', 'resetPassword'])
      await expectSimilarTiming(phones, (phone) =>
        t.agent().call(sendSmsCode, { userType: 0, phone, purpose }),
      );
  });
});

describe('userRegister', () => {
  it('checks the code first: a wrong code answers the same for either phone, in time too', async () => {
    const phones = await twoPhones();
    for (const lang of LANGS) {
      const answers = [];
      for (const phone of [phones.registered, phones.unregistered]) {
        await t.agent().call(sendSmsCode, { userType: 0, phone, purpose: 'register' });
        const code = await t.smsCodeFor(phone, 'register');
        const res = await t
          .agent()
          .call(userRegister, { userType: 0, phone, password: 'Passw0rd1', smsCode: wrongCode(code) }, lang);
        answers.push(answerOf(res));
      }
      expect(answers[0]).toEqual(answers[1]);
      expect(answers[0].body.code).toBe(Code.SmsCodeInvalid);
    }
    // Also when no code was ever asked for.
    const fresh = { registered: (await registerAndLogin(t)).phone, unregistered: uniquePhone() };
    const noCode = await Promise.all(
      [fresh.registered, fresh.unregistered].map((phone) =>
        t.agent().call(userRegister, { userType: 0, phone, password: 'Passw0rd1', smsCode: '123456' }),
      ),
    );
    expect(answerOf(noCode[0])).toEqual(answerOf(noCode[1]));
    await expectSimilarTiming(phones, (phone) =>
      t.agent().call(userRegister, { userType: 0, phone, password: 'Passw0rd1', smsCode: '000000' }),
    );
  });

  it('after the code proves the phone, says kindly that the number already has an account', async () => {
    const { registered } = await twoPhones();
    for (const [lang, msg] of [
      [{}, /already has an account: please log in/],
      [zh, /该手机号已有账号，请直接登录/],
    ] as const) {
      await t.agent().call(sendSmsCode, { userType: 0, phone: registered, purpose: 'register' });
      const smsCode = await t.smsCodeFor(registered, 'register');
      const res = await t
        .agent()
        .call(userRegister, { userType: 0, phone: registered, password: 'Passw0rd1', smsCode }, lang);
      expect(res.body).toEqual({ code: Code.PhoneTaken, msg: expect.stringMatching(msg), data: null });
      expect(res.setCookies).toEqual({});
    }
  });
});

describe('resetPassword', () => {
  it('a wrong code answers the same for either phone; a proven unknown phone is told to register', async () => {
    const phones = await twoPhones();
    const answers = [];
    for (const phone of [phones.registered, phones.unregistered]) {
      await t.agent().call(sendSmsCode, { userType: 0, phone, purpose: 'resetPassword' });
      const code = await t.smsCodeFor(phone, 'resetPassword');
      const res = await t
        .agent()
        .call(resetPassword, { userType: 0, phone, smsCode: wrongCode(code), newPassword: 'Passw0rd9' });
      answers.push(answerOf(res));
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0].body.code).toBe(Code.SmsCodeInvalid);
    await expectSimilarTiming(phones, (phone) =>
      t.agent().call(resetPassword, { userType: 0, phone, smsCode: '000000', newPassword: 'Passw0rd9' }),
    );

    await t.agent().call(sendSmsCode, { userType: 0, phone: phones.unregistered, purpose: 'resetPassword' });
    const smsCode = await t.smsCodeFor(phones.unregistered, 'resetPassword');
    const proven = await t
      .agent()
      .call(
        resetPassword,
        { userType: 0, phone: phones.unregistered, smsCode, newPassword: 'Passw0rd9' },
        zh,
      );
    expect(proven.body).toEqual({ code: Code.NotFound, msg: '该手机号尚未注册账号，请先注册', data: null });
  });
});

describe('password logins', () => {
  it('a wrong password answers the same as an unknown phone, in time too (person and operator)', async () => {
    const phones = await twoPhones();
    for (const call of [userLogin, userOperatorLogin]) {
      for (const lang of LANGS) {
        const [a, b] = await Promise.all(
          [phones.registered, phones.unregistered].map((phone) =>
            t
              .agent()
              .call(call, { userType: call === userLogin ? 0 : 1, phone, password: 'Wrong-pass1' }, lang),
          ),
        );
        expect(answerOf(a)).toEqual(answerOf(b));
        expect(a.body.code).toBe(Code.BadCredentials);
      }
      await expectSimilarTiming(phones, (phone) =>
        t.agent().call(call, { userType: 0, phone, password: 'Wrong-pass1' }),
      );
    }
  });
});

describe('partner login (loginEsign)', () => {
  it('a token the partner did not sign answers the same for either phone; the phone is read only after', async () => {
    const phones = await twoPhones();
    const forged = (phone: string) => tokenFor(t, 'ZHDB', phone, { secret: 'x'.repeat(40) });
    for (const lang of [{}, { 'accept-language': 'zh-CN' }] as Record<string, string>[]) {
      const [a, b] = await Promise.all(
        [phones.registered, phones.unregistered].map((phone) => partnerLogin(t.agent(), forged(phone), lang)),
      );
      expect(answerOf(a)).toEqual(answerOf(b));
      expect(a.body.code).toBe(Code.PartnerTokenSignature);
    }
    await expectSimilarTiming(phones, (phone) => partnerLogin(t.agent(), forged(phone)));
  });
});
