// Issue 16: with an https PUBLIC_URL the server sends HSTS and every cookie it sets is Secure; on plain
// http neither (a Secure cookie would never come back over http).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHyCenterLogin } from '#contract/calls/session.ts';
import { getEsignLoginInfo, logout, userLogin } from '#contract/calls/session.ts';
import { loginAsHy } from '#contract/calls/partner.ts';
import { type CallResult, type TestApp, createTestApp, registerAndLogin } from './helper.ts';

let https: TestApp;
let http: TestApp;
beforeAll(async () => {
  https = await createTestApp({ PUBLIC_URL: 'https://sign.example.com' });
  http = await createTestApp();
});
afterAll(async () => {
  await https.close();
  await http.close();
});

const setCookieLines = (headers: Record<string, unknown>): string[] => {
  const h = headers['set-cookie'];
  return Array.isArray(h) ? (h as string[]) : h ? [h as string] : [];
};

/** Every cookie-setting answer the server gives: login, re-login, stale cookie cleared, logout, central login. */
async function everyCookieAnswer(t: TestApp): Promise<Record<string, unknown>[]> {
  const seen: Record<string, unknown>[] = [];
  const keep = (r: CallResult | { headers: Record<string, unknown> }) => {
    seen.push(r.headers);
    return r;
  };
  const register = t.agent();
  const { phone, password } = await registerAndLogin(t, { agent: register });
  // registerAndLogin's own answer: log in again on a fresh agent to see the same cookies.
  const agent = t.agent();
  keep(await agent.call(userLogin, { userType: 0, phone, password }));
  const stale = new Map(agent.cookies);
  keep(await agent.call(logout, { userType: 0 }));
  // A browser still sending the ended session's cookies has them cleared.
  for (const [k, v] of stale) agent.cookies.set(k, v);
  keep(await agent.call(getEsignLoginInfo, { userType: 0 }));
  // The simulated central user centre's cookie (development), its login and logout.
  const hy = t.agent();
  keep(await hy.get(`/v1/dev/hy-login?phone=${phone}`));
  keep(await hy.call(isHyCenterLogin, { userType: 0 }));
  keep(await hy.call(loginAsHy, { userType: 0 }));
  keep(await hy.get('/v1/dev/hy-logout'));
  return seen;
}

describe('https public address', () => {
  it('sends HSTS on pages and calls', async () => {
    for (const url of ['/', '/v1/health', '/v1/dev/outbox']) {
      const res = await https.app.inject({ method: 'GET', url });
      expect(res.headers['strict-transport-security'], url).toMatch(/^max-age=\d{7,}/);
    }
    const call = await https.agent().call(getEsignLoginInfo, { userType: 0 });
    expect(call.headers['strict-transport-security']).toMatch(/^max-age=/);
  });

  it('marks every cookie the server sets Secure', async () => {
    const lines = (await everyCookieAnswer(https)).flatMap(setCookieLines);
    const names = new Set(lines.map((l) => l.split('=')[0]));
    // sid, token and the central user centre's cookie, each set and cleared at least once.
    expect([...names].sort()).toEqual(['hy_session', 'sid', 'token']);
    expect(lines.length).toBeGreaterThanOrEqual(8);
    for (const line of lines) expect(line, line).toMatch(/;\s*Secure(;|$)/i);
  });
});

describe('plain http public address', () => {
  it('sends no HSTS and no Secure cookie', async () => {
    const res = await http.app.inject({ method: 'GET', url: '/v1/health' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    const lines = (await everyCookieAnswer(http)).flatMap(setCookieLines);
    expect(lines.length).toBeGreaterThanOrEqual(8);
    for (const line of lines) expect(line, line).not.toMatch(/Secure/i);
  });
});
