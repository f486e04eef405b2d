// Wrong SMS codes lock only the client that typed them, for that purpose: nobody stops a person from
// opening a signing room or signing by typing wrong password-reset codes (or wrong room-login codes from
// another address). Guessing stays bounded: a code dies after SMS_MAX_WRONG wrong guesses from anyone.
import { beforeAll, describe, expect, test } from 'vitest';
import { type RoomLogin, sendLinkSmsCode, signingRoomLoginByLinkCode } from '#contract/calls/flow.ts';
import { resetPassword, sendSmsCode } from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { type Signer, launchForOne, linkFor, ok, personWithCert, sign } from './fixtures/flow.ts';
import { appForFile } from './helper.ts';

// Addresses come from X-Forwarded-For here, so each test client can have its own.
const t = appForFile({ TRUST_PROXY: 'true', SMS_MAX_PER_PHONE_HOUR: '100' });
let alice: Signer;
let bob: Signer;

beforeAll(async () => {
  alice = await personWithCert(t, '李四', { seal: false });
  bob = await personWithCert(t, '王五');
}, 180_000);

const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
const wrongOf = (code: string) => (code === '000000' ? '111111' : '000000');

async function launchFor(signer: Signer) {
  await launchForOne(alice.agent, signer, { title: 'lock scope' });
  return linkFor(t, signer.phone);
}

describe('SMS locks are per purpose and per client', () => {
  test('wrong resetPassword codes from anyone never block a roomLogin or sign code', async () => {
    const link = await launchFor(bob);
    // An attacker asks for a reset code for Bob's phone and types wrong codes until locked.
    const attacker = t.agent();
    ok(
      await attacker.call(
        sendSmsCode,
        { userType: 0, phone: bob.phone, purpose: 'resetPassword' },
        from('127.0.0.1'),
      ),
      'reset code',
    );
    const resetCode = await t.smsCodeFor(bob.phone, 'resetPassword');
    const codes: number[] = [];
    for (let i = 0; i < 7; i++)
      codes.push(
        (
          await attacker.call(
            resetPassword,
            { userType: 0, phone: bob.phone, smsCode: wrongOf(resetCode), newPassword: 'Passw0rd9' },
            from('127.0.0.1'),
          )
        ).body.code,
      );
    expect(codes.slice(0, 4)).toEqual(Array(4).fill(Code.SmsCodeInvalid));
    expect(codes.slice(4)).toEqual(Array(3).fill(Code.SmsLocked));

    // Bob, from the same address even, opens his room by the link and signs.
    const room = ok(
      await bob.agent.call(sendLinkSmsCode, { userType: 0, ...link, phone: bob.phone }, from('127.0.0.1')),
      'link code',
    );
    expect(room).toBeTruthy();
    const loginCode = await t.smsCodeFor(bob.phone, 'roomLogin');
    const login = ok(
      await bob.agent.call<RoomLogin>(
        signingRoomLoginByLinkCode,
        { userType: 0, ...link, phone: bob.phone, smsCode: loginCode },
        from('127.0.0.1'),
      ),
      'room login',
    );
    const signed = await sign(t, bob.agent, login, bob.phone, { personSealId: bob.sealId! });
    expect(signed.body.code, signed.body.msg).toBe(0);
    expect(signed.body.data.flowStatus).toBe('completed');

    // The reset purpose itself stays locked for the attacker's client.
    t.clock.advance(61_000);
    const again = await attacker.call(
      sendSmsCode,
      { userType: 0, phone: bob.phone, purpose: 'resetPassword' },
      from('127.0.0.1'),
    );
    expect(again.body.code).toBe(Code.SmsLocked);
  }, 120_000);

  test('wrong roomLogin codes from another address lock that address only; the code dies, a new one works', async () => {
    const carol = await personWithCert(t, '陈八');
    const link = await launchFor(carol);
    const call = (ip: string, smsCode: string) =>
      t
        .agent()
        .call<RoomLogin>(
          signingRoomLoginByLinkCode,
          { userType: 0, ...link, phone: carol.phone, smsCode },
          from(ip),
        );
    ok(await carol.agent.call(sendLinkSmsCode, { userType: 0, ...link, phone: carol.phone }), 'code');
    const code = await t.smsCodeFor(carol.phone, 'roomLogin');
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await call('10.6.6.6', wrongOf(code))).body.code);
    expect(codes).toEqual([...Array(4).fill(Code.SmsCodeInvalid), Code.SmsLocked, Code.SmsLocked]);
    // Five wrong guesses killed this code (the guess count is per code, from any address) ...
    expect((await call('10.1.1.1', code)).body.code).toBe(Code.SmsCodeInvalid);
    // ... but Carol's address is not locked: she asks for a new code and opens her room.
    t.clock.advance(61_000);
    ok(
      await carol.agent.call(sendLinkSmsCode, { userType: 0, ...link, phone: carol.phone }, from('10.1.1.1')),
      'new code',
    );
    const fresh = await t.smsCodeFor(carol.phone, 'roomLogin');
    expect((await call('10.1.1.1', fresh)).body.code).toBe(0);
    // The attacker's address stays locked for room logins of that phone, even with a right code.
    expect((await call('10.6.6.6', fresh)).body.code).toBe(Code.SmsLocked);
  }, 120_000);

  test('guesses spread over many addresses still kill the code after SMS_MAX_WRONG', async () => {
    const dave = await personWithCert(t, '赵六', { seal: false });
    const link = await launchFor(dave);
    ok(await dave.agent.call(sendLinkSmsCode, { userType: 0, ...link, phone: dave.phone }), 'code');
    const code = await t.smsCodeFor(dave.phone, 'roomLogin');
    for (let i = 0; i < 5; i++) {
      const res = await t
        .agent()
        .call(
          signingRoomLoginByLinkCode,
          { userType: 0, ...link, phone: dave.phone, smsCode: wrongOf(code) },
          from(`10.7.7.${i + 1}`),
        );
      expect(res.body.code).toBe(Code.SmsCodeInvalid);
    }
    const right = await t
      .agent()
      .call(
        signingRoomLoginByLinkCode,
        { userType: 0, ...link, phone: dave.phone, smsCode: code },
        from('10.7.7.99'),
      );
    expect(right.body.code).toBe(Code.SmsCodeInvalid);
  }, 120_000);

  test('asking again during the resend wait says how many seconds are left (retryAfterSeconds)', async () => {
    const agent = t.agent();
    const phone = alice.phone;
    ok(await agent.call(sendSmsCode, { userType: 0, phone, purpose: 'resetPassword' }), 'first');
    t.clock.advance(18_000);
    const again = await agent.call(sendSmsCode, { userType: 0, phone, purpose: 'resetPassword' });
    expect(again.body).toEqual({
      code: Code.RateLimited,
      msg: 'please wait 42 s before requesting another code',
      data: { retryAfterSeconds: 42 },
    });
    const zh = await agent.call(
      sendSmsCode,
      { userType: 0, phone, purpose: 'resetPassword' },
      { headers: { 'accept-language': 'zh-CN' } },
    );
    expect(zh.body.msg).toBe('请在 42 秒后再获取验证码');
  });
});
