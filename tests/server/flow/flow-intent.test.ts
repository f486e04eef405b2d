// The intent check the launcher chooses per party (issue 11), through HTTP: the SMS code (default), the
// signer's signing password (set with an SMS proof, wrong attempts refused and then locked), and a face check
// through the development identity provider (no passed result: refused; another party's result: refused).
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  type RoomLogin,
  type SigningRoom,
  getAuditTrail,
  getSigningPassword,
  getSigningRoom,
  sendSignSmsCode,
  setSigningPassword,
  signDocument,
  startRoomFaceAuth,
} from '#contract/calls/flow.ts';
import { sendSmsCode } from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { queryRows } from '#server/db/database.ts';
import { appForFile } from '../helper.ts';
import {
  type Signer,
  answerFace,
  contractPdf,
  launchForOne,
  ok,
  personWithCert,
  roomBySession,
  signCode,
} from '../fixtures/flow.ts';

const t = appForFile({ FREE_SIGNING_ALLOWANCE: '20', SMS_MAX_PER_PHONE_HOUR: '200' });
let alice: Signer;
let pdf: Uint8Array;

beforeAll(async () => {
  alice = await personWithCert(t, '李四', { seal: false });
  pdf = await contractPdf(1);
}, 180_000);

type Intent = 'sms' | 'face' | 'password' | undefined;

/** Alice launches a one-party flow for the signer with the given intent check; the signer opens its room. */
async function launchFor(signer: Signer, intent: Intent): Promise<{ flowId: string; room: RoomLogin }> {
  const launched = await launchForOne(alice.agent, signer, {
    pdf,
    title: `intent ${intent ?? 'default'}`,
    party: intent ? { intent } : {},
  });
  const room = await roomBySession(signer.agent, launched.flowId);
  return { flowId: launched.flowId, room };
}

const signWith = (signer: Signer, room: RoomLogin, body: Record<string, unknown>) =>
  signer.agent.call<{ flowStatus: string }>(signDocument, {
    userType: 0,
    roomToken: room.roomToken,
    signaturePng: undefined,
    personSealId: signer.sealId ?? undefined,
    ...body,
  });

const roomView = async (signer: Signer, room: RoomLogin) =>
  ok(
    await signer.agent.call<SigningRoom>(getSigningRoom, { userType: 0, roomToken: room.roomToken }),
    'room',
  );

async function signDetails(flowId: string): Promise<string[]> {
  const r = await queryRows<{ detail: string }>(
    t.db,
    sql`SELECT detail FROM audit_entries WHERE flow_id = ${flowId} AND event = 'sign'`,
  );
  return r.map((x) => x.detail);
}

async function setPassword(signer: Signer, password: string, roomToken?: string) {
  ok(
    await signer.agent.call(sendSmsCode, { userType: 0, phone: signer.phone, purpose: 'signingPassword' }),
    'sms',
  );
  const smsCode = await t.smsCodeFor(signer.phone, 'signingPassword');
  t.clock.advance(61_000);
  return signer.agent.call(setSigningPassword, { userType: 0, roomToken, smsCode, password });
}

describe('intent check per party', () => {
  test('default stays the SMS code (old clients): the room says sms, the audit entry names it', async () => {
    const s = await personWithCert(t, '王五');
    const { flowId, room } = await launchFor(s, undefined);
    expect((await roomView(s, room)).party.intent).toBe('sms');
    const missing = await signWith(s, room, {});
    expect(missing.body.code).toBe(Code.SmsCodeInvalid);
    const smsCode = await signCode(t, s.agent, room.roomToken, s.phone);
    ok(await signWith(s, room, { smsCode }), 'sign');
    expect((await signDetails(flowId))[0]).toMatch(/ intent sms code sent \d{4}-\d\d-\d\dT\S+Z$/);
  }, 120_000);

  test('signing password: not set refused, an SMS code does not replace it, wrong refused, right signs', async () => {
    const s = await personWithCert(t, '赵六');
    const { flowId, room } = await launchFor(s, 'password');
    expect((await roomView(s, room)).party.intent).toBe('password');
    const notSet = await signWith(s, room, { signingPassword: 'whatever1' });
    expect(notSet.body.code).toBe(Code.IntentNotConfirmed);
    // Set in the room with an SMS proof of the signer's own phone; a wrong SMS code sets nothing.
    const badProof = await s.agent.call(setSigningPassword, {
      userType: 0,
      roomToken: room.roomToken,
      smsCode: '000000',
      password: 'pass-1234',
    });
    expect(badProof.body.code).toBe(Code.SmsCodeInvalid);
    // The room sends the code to its own phone (the signer need not type it).
    ok(
      await s.agent.call(sendSignSmsCode, {
        userType: 0,
        roomToken: room.roomToken,
        purpose: 'signingPassword',
      }),
      'room sms',
    );
    const proof = await t.smsCodeFor(s.phone, 'signingPassword');
    t.clock.advance(61_000);
    ok(
      await s.agent.call(setSigningPassword, {
        userType: 0,
        roomToken: room.roomToken,
        smsCode: proof,
        password: 'pass-1234',
      }),
      'set password',
    );
    const rows = await queryRows<{ password_hash: string }>(
      t.db,
      sql`SELECT password_hash FROM signing_passwords WHERE user_id = ${s.userId}`,
    );
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
    // The SMS code alone is not the chosen check.
    const smsCode = await signCode(t, s.agent, room.roomToken, s.phone);
    expect((await signWith(s, room, { smsCode })).body.code).toBe(Code.IntentNotConfirmed);
    const wrong = await signWith(s, room, { signingPassword: 'pass-9999' });
    expect(wrong.body).toMatchObject({ code: Code.BadCredentials });
    expect(wrong.body.msg).toMatch(/4 attempt/);
    ok(await signWith(s, room, { signingPassword: 'pass-1234' }), 'sign');
    expect((await signDetails(flowId))[0]).toMatch(/ intent password$/);
    // Each reader sees the check named in their language (issue 11 edge 18).
    const trail = async (lang: string) =>
      ok(
        await alice.agent.call<{ entries: { event: string; detail: string }[] }>(
          getAuditTrail,
          { userType: 0, flowId },
          { headers: { 'accept-language': lang } },
        ),
        'trail',
      ).entries.filter((e) => e.event === 'sign');
    expect((await trail('zh-CN'))[0].detail).toContain('意愿认证：签署密码');
    expect((await trail('en-US'))[0].detail).toContain('intent check: signing password');
  }, 120_000);

  test('signing password: five wrong lock it, even the right one, for 15 minutes; changed with a new SMS proof', async () => {
    const s = await personWithCert(t, '钱七');
    // Without a room and without a login nobody's password can be set.
    const anonymous = await t
      .agent()
      .call(setSigningPassword, { userType: 0, smsCode: '123456', password: 'right-pass' });
    expect(anonymous.body.code).not.toBe(0);
    // The workspace's card reads the state: nothing set, no lock; never without a login.
    type Status = { isSet: boolean; updatedAt: string | null; lockedUntil: string | null };
    const status = async () => ok(await s.agent.call<Status>(getSigningPassword, { userType: 0 }), 'status');
    expect((await t.agent().call(getSigningPassword, { userType: 0 })).body.code).toBe(Code.NotLoggedIn);
    expect(await status()).toEqual({ isSet: false, updatedAt: null, lockedUntil: null });
    ok(await setPassword(s, 'right-pass'), 'set password (logged in)');
    const set = await status();
    expect(set).toMatchObject({ isSet: true, lockedUntil: null });
    expect(t.clock.now().getTime() - Date.parse(set.updatedAt!)).toBeLessThan(10_000);
    expect(JSON.stringify(set)).not.toMatch(/argon2|right-pass/);
    const { room } = await launchFor(s, 'password');
    for (let i = 0; i < 4; i++)
      expect((await signWith(s, room, { signingPassword: `wrong-${i}` })).body.code).toBe(
        Code.BadCredentials,
      );
    expect((await signWith(s, room, { signingPassword: 'wrong-4' })).body.code).toBe(
      Code.SigningPasswordLocked,
    );
    const locked = await signWith(s, room, { signingPassword: 'right-pass' });
    expect(locked.body.code).toBe(Code.SigningPasswordLocked);
    expect(locked.body.msg).toMatch(/minute/);
    const lock = (await status()).lockedUntil;
    expect(Date.parse(lock!) - t.clock.now().getTime()).toBeGreaterThan(14 * 60_000);
    t.clock.advance(16 * 60_000);
    expect((await status()).lockedUntil).toBeNull();
    ok(await setPassword(s, 'new-pass-1'), 'change password');
    expect((await signWith(s, room, { signingPassword: 'right-pass' })).body.code).toBe(Code.BadCredentials);
    ok(await signWith(s, room, { signingPassword: 'new-pass-1' }), 'sign');
  }, 120_000);

  test('face: refused without a passed result, with a failed one, and with another party’s result', async () => {
    const s = await personWithCert(t, '孙八');
    const a = await launchFor(s, 'face');
    const b = await launchFor(s, 'face');
    expect((await roomView(s, a.room)).party.intent).toBe('face');
    expect((await signWith(s, a.room, {})).body.code).toBe(Code.IntentNotConfirmed);

    const start = async (room: RoomLogin) =>
      ok(
        await s.agent.call<{ url: string }>(startRoomFaceAuth, {
          userType: 0,
          roomToken: room.roomToken,
          deviceType: 'pc',
          signUrl: '/signRoom',
        }),
        'start face',
      );
    const press = (url: string, result: 'passed' | 'failed') => answerFace(t, url, result);
    // A failed face check of A does not let A sign.
    await press((await start(a.room)).url, 'failed');
    expect((await signWith(s, a.room, {})).body.code).toBe(Code.IntentNotConfirmed);
    // A passed check of B is B's only.
    await press((await start(b.room)).url, 'passed');
    expect((await signWith(s, a.room, {})).body.code).toBe(Code.IntentNotConfirmed);
    ok(await signWith(s, b.room, {}), 'sign B with its face check');
    expect((await signDetails(b.flowId))[0]).toMatch(/ intent face$/);
    // A passed check too old does not count.
    await press((await start(a.room)).url, 'passed');
    t.clock.advance(11 * 60_000);
    expect((await signWith(s, a.room, {})).body.code).toBe(Code.IntentNotConfirmed);
    await press((await start(a.room)).url, 'passed');
    ok(await signWith(s, a.room, {}), 'sign A');
  }, 180_000);

  test('a face check is refused for a party whose check is not face', async () => {
    const s = await personWithCert(t, '周九');
    const { room } = await launchFor(s, 'sms');
    const res = await s.agent.call(startRoomFaceAuth, {
      userType: 0,
      roomToken: room.roomToken,
      deviceType: 'h5',
      signUrl: '/signRoom',
    });
    expect(res.body.code).toBe(Code.Refused);
  }, 60_000);
});
