import { describe, expect, it } from 'vitest';
import {
  type LoginInfo,
  getEsignLoginInfo,
  getUserQualification,
  logout,
  userLogin,
} from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { type CallDef, callPath } from '#contract/envelope.ts';
import {
  FRAME_HEADER,
  FRAME_SESSION_HEADER,
  KEY_SUFFIX_HEADER,
  XSRF_HEADER,
  keySuffixOf,
} from '#contract/transport.ts';
import { appForFile, registerAndLogin } from './helper.ts';

// A partner's page on another site frames the product (issue 25). There the browser may keep no cookie of
// the app's at all, and SameSite=Lax ones never reach it: a framed login gets partitioned cookies AND its
// session in the answer's headers, for the page's memory; the page then sends it back in a header.
const t = appForFile();
const FRAMED = { [FRAME_HEADER]: '1' };

async function framedLogin() {
  const { phone, password } = await registerAndLogin(t);
  const res = await t.app.inject({
    method: 'POST',
    url: callPath(userLogin),
    headers: { 'content-type': 'application/json', ...FRAMED },
    payload: { userType: 0, phone, password },
  });
  expect(JSON.parse(res.body).code).toBe(0);
  return res;
}

/** A call made as a framed page whose browser keeps no cookie: the session only in headers. */
const callWithHeaderSession = (sid: string, token: string | null, def: CallDef, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: callPath(def),
    headers: {
      'content-type': 'application/json',
      ...FRAMED,
      [FRAME_SESSION_HEADER]: sid,
      ...(token ? { [XSRF_HEADER]: token, [KEY_SUFFIX_HEADER]: keySuffixOf(token) } : {}),
    },
    payload,
  });

describe('a login from a framed page', () => {
  it('sets partitioned cookies (SameSite=None; Secure; Partitioned) and answers the session in headers, never cached', async () => {
    const res = await framedLogin();
    const cookies = res.headers['set-cookie'] as string[];
    for (const name of ['sid', 'token']) {
      const cookie = cookies.find((c) => c.startsWith(`${name}=`))!;
      expect(cookie).toMatch(/SameSite=None/i);
      expect(cookie).toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/;\s*Partitioned/i);
    }
    const sid = res.headers[FRAME_SESSION_HEADER];
    const token = res.headers[XSRF_HEADER];
    expect(sid).toBe(/sid=([^;]+)/.exec(cookies.find((c) => c.startsWith('sid='))!)![1]);
    expect(token).toBe(/token=([^;]+)/.exec(cookies.find((c) => c.startsWith('token='))!)![1]);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is logged in by the header alone (no cookie at all), with the XSRF headers', async () => {
    const res = await framedLogin();
    const sid = String(res.headers[FRAME_SESSION_HEADER]);
    const token = String(res.headers[XSRF_HEADER]);
    const info = await callWithHeaderSession(sid, token, getEsignLoginInfo, { userType: 0 });
    expect(JSON.parse(info.body)).toMatchObject({ code: 0, data: { loginState: 11 } });
    // Without the XSRF headers the header session does not act (as with a cookie).
    const bare = await callWithHeaderSession(sid, null, getUserQualification, { userType: 0 });
    expect(JSON.parse(bare.body).code).toBe(Code.NotLoggedIn);
    // A wrong XSRF token is refused.
    const wrong = await callWithHeaderSession(sid, `${token}x`, getUserQualification, { userType: 0 });
    expect(wrong.statusCode).toBe(403);
  });

  it('logs out: the header session ends and the partitioned cookies are cleared with their attributes', async () => {
    const res = await framedLogin();
    const sid = String(res.headers[FRAME_SESSION_HEADER]);
    const token = String(res.headers[XSRF_HEADER]);
    const out = await callWithHeaderSession(sid, token, logout, { userType: 0 });
    expect(JSON.parse(out.body).code).toBe(0);
    const cleared = out.headers['set-cookie'] as string[];
    expect(cleared.find((c) => c.startsWith('sid='))).toMatch(/Partitioned/i);
    const after = await callWithHeaderSession(sid, token, getEsignLoginInfo, { userType: 0 });
    expect(JSON.parse(after.body)).toMatchObject({ code: 0, data: null });
  });

  it('a first-party login keeps SameSite=Lax cookies and never answers its secret in a header', async () => {
    const { phone, password } = await registerAndLogin(t);
    const agent = t.agent();
    const res = await agent.call<LoginInfo>(userLogin, { userType: 0, phone, password });
    expect(res.body.code).toBe(0);
    expect(res.headers[FRAME_SESSION_HEADER]).toBeUndefined();
    expect((res.headers['set-cookie'] as string[]).find((c) => c.startsWith('sid='))).toMatch(
      /SameSite=Lax/i,
    );
  });
});
