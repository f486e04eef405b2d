import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { resetPassword, sendSmsCode, userLogin, userRegister } from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { queryRows } from '#server/db/database.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { createTestApp, registerAndLogin, uniquePhone, appForFile } from './helper.ts';

const t = appForFile();

const send = (phone: string, purpose = 'register') =>
  t.agent().call(sendSmsCode, { userType: 0, phone, purpose });
const register = (phone: string, smsCode: string, password = 'Passw0rd1') =>
  t.agent().call(userRegister, { userType: 0, phone, password, smsCode });

describe('sendSmsCode', () => {
  it('sends a 6-digit code valid 5 minutes, resend not before 60 s', async () => {
    const phone = uniquePhone();
    const res = await send(phone);
    expect(res.body).toEqual({
      code: 0,
      msg: 'success',
      data: { expiresInSeconds: 300, resendAfterSeconds: 60 },
    });
    const [message] = await listOutbox(t.db, { to: phone });
    expect(message.code).toMatch(/^\d{6}$/);
    expect(message.text).toContain(message.code!);
    expect(message.channel).toBe('sms');
    const again = await send(phone);
    expect(again.body.code).toBe(Code.RateLimited);
    expect(again.body.msg).toMatch(/^please wait \d+ s before requesting another code$/);
    t.clock.advance(61_000);
    expect((await send(phone)).body.code).toBe(0);
  });

  it('login and reset codes answer success for an unknown phone too; a guessed code resets nothing', async () => {
    const phone = uniquePhone();
    const login = await send(phone, 'login');
    const res = await send(phone, 'resetPassword');
    expect(login.body.code).toBe(0);
    expect(res.body.code).toBe(0);
    // the SMS tells the phone's owner that no account uses the number (issue 16)
    expect((await listOutbox(t.db, { to: phone }))[0].text).toMatch(/No account uses this number yet/);
    // and the same answer for a known phone, which gets a plain code
    const { phone: known } = await registerAndLogin(t);
    const res2 = await send(known, 'resetPassword');
    expect(res2.body).toEqual(res.body);
    const [sms] = await listOutbox(t.db, { to: known });
    expect(sms.purpose).toBe('resetPassword');
    expect(sms.text).not.toMatch(/account/);
    const reset = await t
      .agent()
      .call(resetPassword, { userType: 0, phone, smsCode: '000000', newPassword: 'Passw0rd9' });
    expect(reset.body.code).toBe(Code.SmsCodeInvalid);
  });

  it('refuses an unknown purpose', async () => {
    const res = await send(uniquePhone(), 'spam');
    expect(res.body.code).toBe(Code.BadRequest);
    expect(res.body.msg).toMatch(/^purpose: /);
  });

  it('limits codes per phone per hour', async () => {
    const limited = await createTestApp({ SMS_MAX_PER_PHONE_HOUR: '2', SMS_RESEND_SECONDS: '0' });
    try {
      const phone = uniquePhone();
      const codes = [];
      for (let i = 0; i < 3; i++) {
        codes.push(
          (await limited.agent().call(sendSmsCode, { userType: 0, phone, purpose: 'register' })).body.code,
        );
      }
      expect(codes).toEqual([0, 0, Code.RateLimited]);
    } finally {
      await limited.close();
    }
  });
});

describe('using a code', () => {
  it('a code works once: replaying it is refused', async () => {
    const phone = uniquePhone();
    await send(phone);
    const code = await t.smsCodeFor(phone);
    expect((await register(phone, code)).body.code).toBe(0);
    const { phone: p2 } = await registerAndLogin(t);
    await send(p2, 'resetPassword');
    const resetCode = await t.smsCodeFor(p2, 'resetPassword');
    const first = await t
      .agent()
      .call(resetPassword, { userType: 0, phone: p2, smsCode: resetCode, newPassword: 'Passw0rd2' });
    expect(first.body.code).toBe(0);
    const replay = await t
      .agent()
      .call(resetPassword, { userType: 0, phone: p2, smsCode: resetCode, newPassword: 'Passw0rd3' });
    expect(replay.body).toMatchObject({
      code: Code.SmsCodeInvalid,
      msg: 'the SMS code is wrong, expired or already used',
    });
    expect(
      (await t.agent().call(userLogin, { userType: 0, phone: p2, password: 'Passw0rd2' })).body.code,
    ).toBe(0);
  });

  it('an expired code is refused', async () => {
    const phone = uniquePhone();
    await send(phone);
    const code = await t.smsCodeFor(phone);
    t.clock.advance(301_000);
    expect((await register(phone, code)).body.code).toBe(Code.SmsCodeInvalid);
  });

  it('a code is only valid for its purpose', async () => {
    const { phone } = await registerAndLogin(t);
    await send(phone, 'login');
    const loginCode = await t.smsCodeFor(phone, 'login');
    const res = await t
      .agent()
      .call(resetPassword, { userType: 0, phone, smsCode: loginCode, newPassword: 'Passw0rd4' });
    expect(res.body.code).toBe(Code.SmsCodeInvalid);
  });

  it('five wrong codes lock the phone for 15 minutes, even for the right code', async () => {
    const phone = uniquePhone();
    await send(phone);
    const code = await t.smsCodeFor(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await register(phone, wrong)).body.code);
    expect(codes).toEqual([
      Code.SmsCodeInvalid,
      Code.SmsCodeInvalid,
      Code.SmsCodeInvalid,
      Code.SmsCodeInvalid,
      Code.SmsLocked,
    ]);
    const right = await register(phone, code);
    expect(right.body.code).toBe(Code.SmsLocked);
    expect(right.body.msg).toMatch(/locked for \d+ minutes/);
    // sending is locked too
    t.clock.advance(61_000);
    expect((await send(phone)).body.code).toBe(Code.SmsLocked);
    t.clock.advance(15 * 60_000);
    expect((await send(phone)).body.code).toBe(0);
    const fresh = await t.smsCodeFor(phone);
    expect((await register(phone, fresh)).body.code).toBe(0);
  });

  it('sms_codes keeps only a hash of the code', async () => {
    const phone = uniquePhone();
    await send(phone);
    const code = await t.smsCodeFor(phone);
    const rows = await queryRows<{ code_hash: string }>(
      t.db,
      sql`SELECT code_hash FROM sms_codes WHERE phone = ${phone}`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].code_hash).not.toContain(code);
    expect(rows[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
