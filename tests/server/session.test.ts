import { describe, expect, it } from 'vitest';
import {
  type LoginInfo,
  getEsignLoginInfo,
  getUserQualification,
  logout,
  resetPassword,
  sendSmsCode,
  updateLoginUserInfoCache,
  userLogin,
  userOperatorLogin,
  userRegister,
} from '#contract/calls/session.ts';
import { Code, HttpStatus } from '#contract/codes.ts';
import { LoginState } from '#contract/enums.ts';
import { KEY_SUFFIX_HEADER, XSRF_HEADER, keySuffixOf } from '#contract/transport.ts';
import { setUserStatus } from '#server/modules/session/testing.ts';
import { createTestApp, registerAndLogin, uniquePhone, appForFile } from './helper.ts';

const t = appForFile({ SESSION_IDLE_MINUTES: '30' });

describe('register and log in', () => {
  it('registers a person, sets sid (HttpOnly) and token (readable) cookies, answers the login info', async () => {
    const { agent, phone, info } = await registerAndLogin(t);
    expect(info).toMatchObject({
      userType: 0,
      loginState: LoginState.Verified,
      phone,
      hasCaCert: false,
      hasSeal: false,
      hasOperator: false,
      salePackageProductTypeList: [],
      totalQuantitySum: 10, // the free signing allowance (FREE_SIGNING_ALLOWANCE, default 10)
      remainQuantity: 10,
    });
    expect(agent.sid).toBeTruthy();
    expect(agent.token).toBeTruthy();
    const again = await agent.call<LoginInfo>(getEsignLoginInfo, { userType: 0 });
    expect(again.body.code).toBe(0);
    expect(again.body.data?.userId).toBe(info.userId);
  });

  it('cookie attributes follow SPEC §9 (SameSite=Lax, path /, 1 day) and sid is HttpOnly', async () => {
    const t2 = t.agent();
    const phone = uniquePhone();
    await t2.call(sendSmsCode, { userType: 0, phone, purpose: 'register' });
    const smsCode = await t.smsCodeFor(phone);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/account/api/csign/userRegister',
      payload: { userType: 0, phone, password: 'Abcdefg1', smsCode },
    });
    const cookies = res.headers['set-cookie'] as string[];
    const sid = cookies.find((c) => c.startsWith('sid='))!;
    const token = cookies.find((c) => c.startsWith('token='))!;
    expect(sid).toMatch(/HttpOnly/i);
    expect(sid).toMatch(/SameSite=Lax/i);
    expect(sid).toMatch(/Path=\//);
    expect(token).not.toMatch(/HttpOnly/i);
    expect(token).toMatch(/SameSite=Lax/i);
    expect(token).toMatch(/Max-Age=86400/);
    // http PUBLIC_URL: no Secure flag (it would stop the cookie on plain http)
    expect(token).not.toMatch(/Secure/i);
  });

  it('logs in with phone and password; wrong password is BadCredentials', async () => {
    const { phone, password } = await registerAndLogin(t);
    const fresh = t.agent();
    const bad = await fresh.call(userLogin, { userType: 0, phone, password: 'wrong-pass1' });
    expect(bad.body).toMatchObject({ code: Code.BadCredentials, msg: 'phone number or password is wrong' });
    const unknown = await fresh.call(userLogin, { userType: 0, phone: uniquePhone(), password: 'whatever1' });
    expect(unknown.body.code).toBe(Code.BadCredentials);
    const ok = await fresh.call<LoginInfo>(userLogin, { userType: 0, phone, password });
    expect(ok.body.code).toBe(0);
    expect(ok.body.data.phone).toBe(phone);
    expect(fresh.token).toBeTruthy();
  });

  it('refuses a second registration of the same phone once its code is proven', async () => {
    const { phone } = await registerAndLogin(t);
    t.clock.advance(61_000);
    const sent = await t.agent().call(sendSmsCode, { userType: 0, phone, purpose: 'register' });
    expect(sent.body.code).toBe(0);
    const smsCode = await t.smsCodeFor(phone, 'register');
    const res = await t.agent().call(userRegister, { userType: 0, phone, password: 'Passw0rd1', smsCode });
    expect(res.body).toMatchObject({
      code: Code.PhoneTaken,
      msg: 'this phone number already has an account: please log in (or reset the password if you forgot it)',
    });
  });

  it('company login is refused clearly while the user has no company', async () => {
    const { phone, password } = await registerAndLogin(t);
    const op = await t.agent().call(userOperatorLogin, { userType: 1, phone, password });
    expect(op.body.code).toBe(Code.Refused);
    expect(op.body.msg).toMatch(/belongs to no company/);
    const asCompany = await t.agent().call(userLogin, { userType: 1, phone, password });
    expect(asCompany.body.code).toBe(Code.Refused);
  });
});

describe('calls that need a login', () => {
  it('answers 2000 without a session, and getEsignLoginInfo answers null data', async () => {
    const anon = t.agent();
    const q = await anon.call(getUserQualification, { userType: 0 });
    expect(q.status).toBe(200);
    expect(q.body).toEqual({ code: Code.NotLoggedIn, msg: 'not logged in', data: null });
    const info = await anon.call(getEsignLoginInfo, { userType: 0 });
    expect(info.body).toEqual({ code: 0, msg: 'success', data: null });
  });

  it('getUserQualification and updateLoginUserInfoCache answer the login info', async () => {
    const { agent, info } = await registerAndLogin(t);
    const q = await agent.call<LoginInfo>(getUserQualification, { userType: 0, status: 1, id: 'x' });
    expect(q.body.code).toBe(0);
    expect(q.body.data).toEqual(info);
    const u = await agent.call<LoginInfo>(updateLoginUserInfoCache, { userType: 0 });
    expect(u.body.data).toEqual(info);
  });

  it('logout ends the session and clears both cookies; the next call answers 2000', async () => {
    const { agent } = await registerAndLogin(t);
    const oldCookies = new Map(agent.cookies);
    const out = await agent.call(logout, { userType: 0 });
    expect(out.body).toEqual({ code: 0, msg: 'success', data: null });
    expect(out.setCookies).toEqual({ sid: '', token: '' });
    // Even a browser that kept the old cookies is logged out: the session ended on the server.
    for (const [k, v] of oldCookies) agent.cookies.set(k, v);
    const after = await agent.call(getUserQualification, { userType: 0 });
    expect(after.body.code).toBe(Code.NotLoggedIn);
    const info = await agent.call(getEsignLoginInfo, { userType: 0 });
    expect(info.body.data).toBeNull();
  });
});

describe('XSRF and keySuffix', () => {
  it('refuses a call with a session but without the XSRF headers (403, XsrfRejected)', async () => {
    const { agent } = await registerAndLogin(t);
    const res = await agent.call(updateLoginUserInfoCache, { userType: 0 }, { xsrf: false });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(Code.XsrfRejected);
    const lo = await agent.call(logout, { userType: 0 }, { xsrf: false });
    expect(lo.body.code).toBe(Code.XsrfRejected);
    // The refused logout did not end the session.
    const still = await agent.call(getUserQualification, { userType: 0 });
    expect(still.body.code).toBe(0);
  });

  it('a browser that dropped its token cookie (after 2000/3000/4000) is treated as logged out, not refused', async () => {
    const { agent, phone, password } = await registerAndLogin(t);
    agent.cookies.delete('token');
    const res = await agent.call(getUserQualification, { userType: 0 });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(Code.NotLoggedIn);
    expect((await agent.call(getEsignLoginInfo, { userType: 0 })).body.data).toBeNull();
    const login = await agent.call(userLogin, { userType: 0, phone, password });
    expect(login.body.code).toBe(0);
    expect((await agent.call(getUserQualification, { userType: 0 })).body.code).toBe(0);
  });

  it('refuses a wrong token, a missing keySuffix and a wrong keySuffix', async () => {
    const { agent } = await registerAndLogin(t);
    const token = agent.token!;
    const cases: Record<string, string>[] = [
      { [XSRF_HEADER]: 'not-the-token', [KEY_SUFFIX_HEADER]: keySuffixOf('not-the-token') },
      { [XSRF_HEADER]: token },
      { [XSRF_HEADER]: token, [KEY_SUFFIX_HEADER]: '00000000' },
      { [KEY_SUFFIX_HEADER]: keySuffixOf(token) },
    ];
    for (const headers of cases) {
      const res = await agent.call(getUserQualification, { userType: 0 }, { xsrf: false, headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.code).toBe(Code.XsrfRejected);
    }
    const ok = await agent.call(getUserQualification, { userType: 0 });
    expect(ok.body.code).toBe(0);
  });

  it('refuses when the token cookie disagrees with the session', async () => {
    const { agent } = await registerAndLogin(t);
    const other = await registerAndLogin(t);
    // headers carry this session's token, the cookie another one's
    agent.cookies.set('token', other.agent.token!);
    const res = await agent.call(
      getUserQualification,
      { userType: 0 },
      {
        xsrf: false,
        headers: { [XSRF_HEADER]: other.agent.token!, [KEY_SUFFIX_HEADER]: keySuffixOf(other.agent.token!) },
      },
    );
    expect(res.body.code).toBe(Code.XsrfRejected);
  });
});

describe('sessions end', () => {
  it('a sixth login ends the oldest session, which then answers 3000', async () => {
    const { agent: first, phone, password } = await registerAndLogin(t);
    const others = [];
    for (let i = 0; i < 5; i++) {
      const a = t.agent();
      const res = await a.call(userLogin, { userType: 0, phone, password });
      expect(res.body.code).toBe(0);
      others.push(a);
    }
    const evicted = await first.call(getUserQualification, { userType: 0 });
    expect(evicted.body.code).toBe(Code.LoggedInElsewhere);
    expect(evicted.body.msg).toMatch(/logged in elsewhere/);
    // the five newer sessions are alive
    for (const a of others) expect((await a.call(getUserQualification, { userType: 0 })).body.code).toBe(0);
  });

  it('an idle session times out: HTTP 601 with code 2000', async () => {
    const { agent } = await registerAndLogin(t);
    t.clock.advance(29 * 60_000);
    expect((await agent.call(getUserQualification, { userType: 0 })).body.code).toBe(0);
    // activity moved last_seen: another 29 minutes are still fine
    t.clock.advance(29 * 60_000);
    expect((await agent.call(getUserQualification, { userType: 0 })).body.code).toBe(0);
    t.clock.advance(31 * 60_000);
    const res = await agent.call(getUserQualification, { userType: 0 });
    expect(res.status).toBe(HttpStatus.SessionTimedOut);
    expect(res.body).toEqual({
      code: Code.NotLoggedIn,
      msg: 'login timed out, please log in again',
      data: null,
    });
    const info = await agent.call(getEsignLoginInfo, { userType: 0 });
    expect(info.body.data).toBeNull();
  });

  it('a disabled account: live sessions answer 4000, and login answers 4000', async () => {
    const { agent, phone, password, info } = await registerAndLogin(t);
    await setUserStatus(t.db, info.userId, 'disabled');
    const res = await agent.call(getUserQualification, { userType: 0 });
    expect(res.body).toMatchObject({ code: Code.AccountDisabled, msg: 'this account is disabled' });
    const login = await t.agent().call(userLogin, { userType: 0, phone, password });
    expect(login.body.code).toBe(Code.AccountDisabled);
    // a wrong password does not reveal the state
    const wrong = await t.agent().call(userLogin, { userType: 0, phone, password: 'nope-nope1' });
    expect(wrong.body.code).toBe(Code.BadCredentials);
  });

  it('resetting the password ends every session; the new password works, the old one not', async () => {
    const { agent, phone, password } = await registerAndLogin(t);
    const second = t.agent();
    await second.call(userLogin, { userType: 0, phone, password });
    const anon = t.agent();
    expect((await anon.call(sendSmsCode, { userType: 0, phone, purpose: 'resetPassword' })).body.code).toBe(
      0,
    );
    const smsCode = await t.smsCodeFor(phone, 'resetPassword');
    const reset = await anon.call(resetPassword, { userType: 0, phone, smsCode, newPassword: 'NewPassw0rd' });
    expect(reset.body).toEqual({ code: 0, msg: 'success', data: null });
    for (const a of [agent, second]) {
      const res = await a.call(getUserQualification, { userType: 0 });
      expect(res.body.code).toBe(Code.NotLoggedIn);
    }
    expect((await t.agent().call(userLogin, { userType: 0, phone, password })).body.code).toBe(
      Code.BadCredentials,
    );
    expect((await t.agent().call(userLogin, { userType: 0, phone, password: 'NewPassw0rd' })).body.code).toBe(
      0,
    );
  });
});

describe('login brute force', () => {
  it('locks a phone after too many failed logins, even with the right password', async () => {
    const limited = await createTestApp({ LOGIN_MAX_FAILED_PER_PHONE: '3' });
    try {
      const { phone, password } = await registerAndLogin(limited);
      for (let i = 0; i < 3; i++) {
        const res = await limited
          .agent()
          .call(userLogin, { userType: 0, phone, password: `wrong-${i}-pass` });
        expect(res.body.code).toBe(Code.BadCredentials);
      }
      const blocked = await limited.agent().call(userLogin, { userType: 0, phone, password });
      expect(blocked.body).toMatchObject({
        code: Code.RateLimited,
        msg: 'too many login attempts, please try again later',
      });
      limited.clock.advance(16 * 60_000);
      expect((await limited.agent().call(userLogin, { userType: 0, phone, password })).body.code).toBe(0);
    } finally {
      await limited.close();
    }
  });

  it('limits login attempts per client address', async () => {
    const limited = await createTestApp({ LOGIN_MAX_PER_IP: '2' });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) {
        const res = await limited
          .agent()
          .call(userLogin, { userType: 0, phone: uniquePhone(), password: 'x1234567' });
        codes.push(res.body.code);
      }
      expect(codes).toEqual([Code.BadCredentials, Code.BadCredentials, Code.RateLimited]);
    } finally {
      await limited.close();
    }
  });
});
