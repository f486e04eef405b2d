// Development secrets answer only this machine (issue 23, L3): the development partner keys (ZHDB's HS256
// secret, ZYPT's ES256 key pair) and the simulated central user centre's HY_DEV_SECRET are public, so with
// HOST=0.0.0.0 a token or hy_session cookie signed with them must not log in a client on another machine.
// A partner configured with its own key is unaffected, from any address.
import { describe, expect, it } from 'vitest';
import { loginAsHy } from '#contract/calls/partner.ts';
import { isHyCenterLogin } from '#contract/calls/session.ts';
import { callPath } from '#contract/envelope.ts';
import { Code } from '#contract/codes.ts';
import { HyLoginType } from '#contract/enums.ts';
import { DEV_HY_SECRET } from '#server/config/partner-dev-keys.ts';
import { devHySessionValue } from '#server/modules/partner/testing.ts';
import { type TestApp, createTestApp, uniquePhone, appForFile } from '../helper.ts';
import { loginEsignUrl, tokenFor } from '../fixtures/partner.ts';

const REMOTE = ['192.168.1.20', '10.0.0.7', '203.0.113.9', '::ffff:192.168.1.20', '2001:db8::7'];
const LOCAL = ['127.0.0.1', '::1', '::ffff:127.0.0.1'];
const OWN_SECRET = 'a-partner-secret-of-our-own-0123456789abcdef';

/** One POST of a call from a client at `remoteAddress` (fastify inject), without a session. */
async function postFrom(
  t: TestApp,
  url: string,
  remoteAddress: string,
  opts: { headers?: Record<string, string>; cookies?: Record<string, string> } = {},
) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    remoteAddress,
    headers: { 'content-type': 'application/json', ...opts.headers },
    cookies: opts.cookies,
    payload: JSON.stringify({ userType: 0 }),
  });
  return { status: res.statusCode, body: res.json(), setCookie: res.headers['set-cookie'] };
}

// ZHDB and ZYPT on the development keys; OWNP with a secret of its own.
const t = appForFile({ PARTNERS: 'ZHDB,ZYPT,OWNP', PARTNER_OWNP_SECRET: OWN_SECRET });

describe('loginEsign with a development partner key', () => {
  it.each(['ZHDB', 'ZYPT'])(
    'a %s token signed with the public development key is refused from another machine',
    async (code) => {
      for (const address of REMOTE) {
        const res = await postFrom(t, loginEsignUrl(tokenFor(t, code, uniquePhone())), address);
        expect(res.body).toEqual({
          code: Code.Refused,
          msg: expect.stringMatching(/public development key.*loopback/),
          data: null,
        });
        expect(res.status).toBe(200);
        expect(res.setCookie).toBeUndefined();
      }
      const zh = await postFrom(t, loginEsignUrl(tokenFor(t, code, uniquePhone())), REMOTE[0], {
        headers: { 'accept-language': 'zh-CN' },
      });
      expect(zh.body.msg).toMatch(/开发用密钥.*本机/);
    },
  );

  it('is refused when a proxy on this machine passes on a remote client (X-Forwarded-For, Forwarded)', async () => {
    const proxied: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for="[2001:db8::7]:4711"' },
    ];
    for (const headers of proxied) {
      const res = await postFrom(t, loginEsignUrl(tokenFor(t, 'ZHDB', uniquePhone())), '127.0.0.1', {
        headers,
      });
      expect(res.body.code).toBe(Code.Refused);
    }
  });

  it('a refused token is not used up: the same token still logs in on this machine', async () => {
    const phone = uniquePhone();
    const token = tokenFor(t, 'ZHDB', phone);
    expect((await postFrom(t, loginEsignUrl(token), '192.168.1.20')).body.code).toBe(Code.Refused);
    const res = await postFrom(t, loginEsignUrl(token), '127.0.0.1');
    expect(res.body).toMatchObject({ code: 0, data: { phone, loginState: 11 } });
  });

  it.each(LOCAL)('still logs in from this machine (%s)', async (address) => {
    for (const code of ['ZHDB', 'ZYPT']) {
      const phone = uniquePhone();
      const res = await postFrom(t, loginEsignUrl(tokenFor(t, code, phone)), address);
      expect(res.body).toMatchObject({ code: 0, data: { phone, userType: 0, loginState: 11 } });
      expect(String(res.setCookie)).toMatch(/sid=/);
    }
  });
});

describe('loginEsign with a partner key of its own', () => {
  it.each([...REMOTE, ...LOCAL])('logs in from any address (%s)', async (address) => {
    const phone = uniquePhone();
    const res = await postFrom(t, loginEsignUrl(tokenFor(t, 'OWNP', phone)), address);
    expect(res.body).toMatchObject({ code: 0, data: { phone, loginState: 11 } });
  });

  it('the development secret configured explicitly is still a development key', async () => {
    const explicit = await createTestApp({
      PARTNERS: 'ZHDB',
      PARTNER_ZHDB_SECRET: 'development-only-ZHDB-partner-secret-never-use-in-production',
    });
    try {
      const remote = await postFrom(
        explicit,
        loginEsignUrl(tokenFor(explicit, 'ZHDB', uniquePhone())),
        '10.0.0.7',
      );
      expect(remote.body.code).toBe(Code.Refused);
      const local = await postFrom(
        explicit,
        loginEsignUrl(tokenFor(explicit, 'ZHDB', uniquePhone())),
        '127.0.0.1',
      );
      expect(local.body.code).toBe(0);
    } finally {
      await explicit.close();
    }
  });
});

describe('the simulated central user centre (HY_CENTER=development)', () => {
  /** A hy_session cookie as anyone who read partner-dev-keys.ts can sign it. */
  const forged = (phone: string) =>
    devHySessionValue(
      DEV_HY_SECRET,
      { centralUserId: `hy-${phone}`, phone, name: null, companyName: null },
      t.clock.now(),
    );

  it('loginAsHy with a cookie signed with the public secret is refused from another machine', async () => {
    for (const address of REMOTE) {
      const res = await postFrom(t, callPath(loginAsHy), address, {
        cookies: { hy_session: forged(uniquePhone()) },
      });
      expect(res.body).toEqual({
        code: Code.Refused,
        msg: expect.stringMatching(/simulated central user centre.*loopback/),
        data: null,
      });
      expect(res.setCookie).toBeUndefined();
    }
    const zh = await postFrom(t, callPath(loginAsHy), REMOTE[0], {
      headers: { 'accept-language': 'zh-CN' },
      cookies: { hy_session: forged(uniquePhone()) },
    });
    expect(zh.body.msg).toMatch(/模拟的统一用户中心.*本机/);
  });

  it('isHyCenterLogin answers no login to another machine, even with a valid cookie', async () => {
    const cookies = { hy_session: forged(uniquePhone()) };
    for (const address of REMOTE) {
      const res = await postFrom(t, callPath(isHyCenterLogin), address, { cookies });
      expect(res.body).toMatchObject({ code: 0, data: HyLoginType.None });
    }
    expect((await postFrom(t, callPath(isHyCenterLogin), '127.0.0.1', { cookies })).body.data).toBe(
      HyLoginType.Person,
    );
  });

  it.each(LOCAL)('loginAsHy still logs in from this machine (%s)', async (address) => {
    const phone = uniquePhone();
    const res = await postFrom(t, callPath(loginAsHy), address, { cookies: { hy_session: forged(phone) } });
    expect(res.body).toMatchObject({ code: 0, data: { phone, userType: 0, loginState: 11 } });
  });
});
