import { createHmac, createSecretKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type PartnerIdentity, getLoginInfoFromJinshang, loginEsign } from '#contract/calls/partner.ts';
import { type LoginInfo, getEsignLoginInfo, userLogin } from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { callPath } from '#contract/envelope.ts';
import { signJws } from '#server/modules/partner/testing.ts';
import { findPartner } from '#server/config/partner.ts';
import { mintPartnerToken } from '#server/modules/partner/index.ts';
import { setUserStatus } from '#server/modules/session/testing.ts';
import { registerAndLogin, uniquePhone, appForFile } from '../helper.ts';
import { partnerLogin, tokenFor } from '../fixtures/partner.ts';

// A third partner configured with an RSA key pair, to cover RS256 next to ZHDB (HS256) and ZYPT (ES256).
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const RSA_PUBLIC_PEM = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();

const t = appForFile({ PARTNERS: 'ZHDB,ZYPT,RSAP', PARTNER_RSAP_PUBLIC_KEY: RSA_PUBLIC_PEM });

const ZH = { 'accept-language': 'zh-CN' };

describe('loginEsign: a valid partner token', () => {
  it('opens an account for a new phone, starts a session and answers the login info (ZHDB, HS256)', async () => {
    const phone = uniquePhone();
    const agent = t.agent();
    const res = await partnerLogin(agent, tokenFor(t, 'ZHDB', phone, { name: '张三' }));
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({ phone, userType: 0, loginState: 11 });
    expect(agent.sid).toBeTruthy();
    expect(agent.token).toBeTruthy();
    // The session is a normal one: the route guard's check sees the same user.
    const check = await agent.call<LoginInfo>(getEsignLoginInfo, { userType: 0 });
    expect(check.body.data?.userId).toBe(res.body.data.userId);
    const who = await agent.call<PartnerIdentity>(getLoginInfoFromJinshang, { userType: 0 });
    expect(who.body.data).toEqual({
      fromPtCode: 'ZHDB',
      fromPtName: '担保公司平台',
      partnerUserId: `zhdb-${phone}`,
      name: '张三',
    });
  });

  it('accepts ES256 (ZYPT development key) and RS256 (configured PEM) tokens', async () => {
    const es = await partnerLogin(t.agent(), tokenFor(t, 'ZYPT', uniquePhone()));
    expect(es.body.code).toBe(0);
    const partner = findPartner(t.deps.config.partners, 'RSAP')!;
    expect(partner.alg).toBe('RS256');
    const token = mintPartnerToken({
      partner,
      key: rsa.privateKey,
      phone: uniquePhone(),
      now: t.clock.now(),
    });
    const rs = await partnerLogin(t.agent(), token);
    expect(rs.body.code).toBe(0);
  });

  it('links the partner user to the same account on a second login, even if the phone it sends changes', async () => {
    const phone = uniquePhone();
    const first = await partnerLogin(t.agent(), tokenFor(t, 'ZHDB', phone, { partnerUserId: 'u-42' }));
    const second = await partnerLogin(
      t.agent(),
      tokenFor(t, 'ZHDB', uniquePhone(), { partnerUserId: 'u-42', name: 'Li Si' }),
    );
    expect(second.body.code).toBe(0);
    expect(second.body.data.userId).toBe(first.body.data.userId);
    expect(second.body.data.phone).toBe(phone);
  });

  it('links to an account already registered with that phone; the password keeps working', async () => {
    const { phone, password, info } = await registerAndLogin(t);
    const res = await partnerLogin(t.agent(), tokenFor(t, 'ZHDB', phone));
    expect(res.body.data.userId).toBe(info.userId);
    const pw = await t.agent().call<LoginInfo>(userLogin, { userType: 0, phone, password });
    expect(pw.body.data.userId).toBe(info.userId);
  });

  it('an account opened by a partner has no usable password (login by password fails)', async () => {
    const phone = uniquePhone();
    await partnerLogin(t.agent(), tokenFor(t, 'ZHDB', phone));
    const pw = await t.agent().call(userLogin, { userType: 0, phone, password: 'Anything123' });
    expect(pw.body.code).toBe(Code.BadCredentials);
  });

  it('getLoginInfoFromJinshang is null for a password session and without a session', async () => {
    const { agent } = await registerAndLogin(t);
    expect((await agent.call(getLoginInfoFromJinshang, { userType: 0 })).body).toMatchObject({
      code: 0,
      data: null,
    });
    expect((await t.agent().call(getLoginInfoFromJinshang, { userType: 0 })).body).toMatchObject({
      code: 0,
      data: null,
    });
  });
});

describe('loginEsign: refusals', () => {
  const refused = async (token: string, code: number, en: RegExp, zh: RegExp) => {
    const agent = t.agent();
    const res = await partnerLogin(agent, token);
    expect(res.body.code).toBe(code);
    expect(res.body.msg).toMatch(en);
    expect(agent.sid).toBeUndefined();
    const inChinese = await partnerLogin(t.agent(), token, ZH);
    expect(inChinese.body.msg).toMatch(zh);
  };

  it('forged signature: signed with another secret', async () => {
    const token = tokenFor(t, 'ZHDB', uniquePhone(), { secret: 'an-attacker-secret-of-enough-length-000' });
    await refused(token, Code.PartnerTokenSignature, /invalid signature/, /签名无效/);
  });

  it('forged signature: payload altered after signing', async () => {
    const [h, , s] = tokenFor(t, 'ZHDB', uniquePhone()).split('.');
    const other = tokenFor(t, 'ZHDB', uniquePhone()).split('.')[1];
    await refused(`${h}.${other}.${s}`, Code.PartnerTokenSignature, /invalid signature/, /签名无效/);
  });

  it('algorithm confusion: an HS256 token keyed with ZYPT public key, and alg none', async () => {
    const zypt = findPartner(t.deps.config.partners, 'ZYPT')!;
    const pem = zypt.key.export({ type: 'spki', format: 'pem' }).toString();
    const nowS = Math.floor(t.clock.now().getTime() / 1000);
    const claims = {
      iss: 'ZYPT',
      aud: zypt.audience,
      sub: 's',
      phone: uniquePhone(),
      jti: 'c1',
      iat: nowS,
      exp: nowS + 60,
    };
    const confused = signJws(claims, 'HS256', createSecretKey(Buffer.from(pem)));
    await refused(confused, Code.PartnerTokenSignature, /invalid signature/, /签名无效/);
    const [, payload] = tokenFor(t, 'ZHDB', uniquePhone()).split('.');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.x`;
    await refused(none, Code.PartnerTokenSignature, /invalid signature/, /签名无效/);
  });

  it('wrong audience', async () => {
    const token = tokenFor(t, 'ZHDB', uniquePhone(), { overrides: { aud: 'another-platform' } });
    await refused(token, Code.PartnerTokenAudience, /another platform/, /不是发给本平台/);
  });

  it('expired, beyond the clock skew', async () => {
    const token = tokenFor(t, 'ZHDB', uniquePhone(), {
      now: new Date(t.clock.now().getTime() - 10 * 60_000),
    });
    await refused(token, Code.PartnerTokenExpired, /expired/, /已过期/);
  });

  it('a token just past exp is still accepted within the 30 s skew', async () => {
    const token = tokenFor(t, 'ZHDB', uniquePhone(), {
      ttlSeconds: 60,
      now: new Date(t.clock.now().getTime() - 70_000),
    });
    expect((await partnerLogin(t.agent(), token)).body.code).toBe(0);
  });

  it('lifetime above 5 minutes', async () => {
    const token = tokenFor(t, 'ZHDB', uniquePhone(), { ttlSeconds: 3600 });
    await refused(token, Code.PartnerTokenExpired, /longer than the 5 minutes/, /超过允许的 5 分钟/);
  });

  it('not yet valid: nbf or iat in the future', async () => {
    const nowS = Math.floor(t.clock.now().getTime() / 1000);
    const nbf = tokenFor(t, 'ZHDB', uniquePhone(), { overrides: { nbf: nowS + 120 } });
    await refused(nbf, Code.PartnerTokenNotYetValid, /not valid yet/, /尚未生效/);
    const iat = tokenFor(t, 'ZHDB', uniquePhone(), { now: new Date(t.clock.now().getTime() + 5 * 60_000) });
    await refused(iat, Code.PartnerTokenNotYetValid, /not valid yet/, /尚未生效/);
  });

  it('replayed jti: the same token twice', async () => {
    const token = tokenFor(t, 'ZHDB', uniquePhone());
    expect((await partnerLogin(t.agent(), token)).body.code).toBe(0);
    await refused(token, Code.PartnerTokenReplayed, /already used/, /已使用过/);
  });

  it('unknown partner (issuer not configured)', async () => {
    const zhdb = findPartner(t.deps.config.partners, 'ZHDB')!;
    const token = mintPartnerToken({
      partner: { ...zhdb, code: 'NOPE' },
      key: zhdb.key,
      phone: uniquePhone(),
    });
    await refused(token, Code.PartnerUnknown, /not configured/, /未在本平台配置/);
  });

  it('malformed: not a JWS, bad claims, no jsToken at all', async () => {
    await refused('not-a-token', Code.PartnerTokenMalformed, /malformed/, /格式错误/);
    await refused('a.b.c', Code.PartnerTokenMalformed, /malformed/, /格式错误/);
    const badPhone = tokenFor(t, 'ZHDB', '12345');
    await refused(badPhone, Code.PartnerTokenMalformed, /malformed/, /格式错误/);
    const noJti = tokenFor(t, 'ZHDB', uniquePhone(), { overrides: { jti: undefined } });
    await refused(noJti, Code.PartnerTokenMalformed, /malformed/, /格式错误/);
    const res = await t.agent().call(loginEsign, { userType: 0 });
    expect(res.body.code).toBe(Code.PartnerTokenMalformed);
    expect(res.body.msg).toMatch(/no jsToken/);
    const empty = await t.agent().call(`${callPath(loginEsign)}?jsToken=`, { userType: 0 }, { headers: ZH });
    expect(empty.body.msg).toMatch(/缺少 jsToken/);
  });

  it('a second partner user claiming an account already linked to another user of that partner', async () => {
    const phone = uniquePhone();
    await partnerLogin(t.agent(), tokenFor(t, 'ZHDB', phone, { partnerUserId: 'owner' }));
    const res = await partnerLogin(t.agent(), tokenFor(t, 'ZHDB', phone, { partnerUserId: 'intruder' }));
    expect(res.body.code).toBe(Code.PartnerLinkConflict);
  });

  it('a disabled account is refused with 4000', async () => {
    const phone = uniquePhone();
    const first = await partnerLogin(t.agent(), tokenFor(t, 'ZHDB', phone));
    await setUserStatus(t.db, first.body.data.userId, 'disabled');
    const res = await partnerLogin(t.agent(), tokenFor(t, 'ZHDB', phone));
    expect(res.body.code).toBe(Code.AccountDisabled);
  });

  it('a correctly signed token with a crit header (an extension it must understand) is refused', async () => {
    const zhdb = findPartner(t.deps.config.partners, 'ZHDB')!;
    const nowS = Math.floor(t.clock.now().getTime() / 1000);
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const payload = {
      iss: 'ZHDB',
      aud: zhdb.audience,
      sub: 's',
      phone: uniquePhone(),
      jti: 'crit',
      iat: nowS,
      exp: nowS + 60,
    };
    const input = `${b64({ alg: 'HS256', crit: ['x-ext'], 'x-ext': 1 })}.${b64(payload)}`;
    const token = `${input}.${createHmac('sha256', zhdb.key).update(input).digest('base64url')}`;
    await refused(token, Code.PartnerTokenSignature, /invalid signature/, /签名无效/);
  });
});
