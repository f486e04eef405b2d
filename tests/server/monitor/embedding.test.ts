import { afterEach, describe, expect, it } from 'vitest';
import { getPlatformConfig } from '#contract/calls/platform.ts';
import { createTestApp, type TestApp } from '../helper.ts';

// Partner embedding: who may frame the app (CSP frame-ancestors) and where the framed app posts its events.
const ZYPT = 'https://research.example.org';
const ZHDB = 'https://guarantee.example.com';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const frameAncestors = (csp: unknown) =>
  String(csp)
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('frame-ancestors'))
    ?.split(/\s+/)
    .slice(1);

describe('frame-ancestors from the partner configuration', () => {
  it("is 'self' plus every partner's origins", async () => {
    t = await createTestApp({
      PARTNER_ZYPT_ORIGINS: ZYPT,
      PARTNER_ZHDB_ORIGINS: `${ZHDB}, http://localhost:3000`,
    });
    const res = await t.agent().get('/v1/health');
    expect(frameAncestors(res.headers['content-security-policy'])?.sort()).toEqual(
      ["'self'", ZYPT, ZHDB, 'http://localhost:3000'].sort(),
    );
    expect(res.headers['x-frame-options']).toBeUndefined();
  });

  it('without partner origins only the app itself may frame it', async () => {
    t = await createTestApp();
    const res = await t.agent().get('/v1/health');
    expect(frameAncestors(res.headers['content-security-policy'])).toEqual(["'self'"]);
  });

  it('FRAME_ANCESTORS adds to the partner origins', async () => {
    t = await createTestApp({ PARTNER_ZYPT_ORIGINS: ZYPT, FRAME_ANCESTORS: 'https://portal.example.net' });
    const res = await t.agent().get('/v1/health');
    expect(frameAncestors(res.headers['content-security-policy'])).toEqual([
      "'self'",
      'https://portal.example.net',
      ZYPT,
    ]);
  });
});

describe('getPlatformConfig', () => {
  it("answers a partner's own origins only, without a login", async () => {
    t = await createTestApp({ PARTNER_ZYPT_ORIGINS: ZYPT, PARTNER_ZHDB_ORIGINS: ZHDB });
    const zypt = await t.agent().call(getPlatformConfig, { userType: 0, fromPtCode: 'ZYPT' });
    expect(zypt.body).toMatchObject({
      code: 0,
      data: { fromPtCode: 'ZYPT', isKnown: true, origins: [ZYPT] },
    });
    const zhdb = await t.agent().call(getPlatformConfig, { userType: 0, fromPtCode: 'ZHDB' });
    expect(zhdb.body.data).toMatchObject({ origins: [ZHDB] });
  });

  it('unknown codes have no origins; the default platform has only the exact origins of FRAME_ANCESTORS', async () => {
    t = await createTestApp({ PARTNER_ZYPT_ORIGINS: ZYPT });
    for (const fromPtCode of ['BCP_STFWPT', 'NOPE']) {
      const res = await t.agent().call(getPlatformConfig, { userType: 0, fromPtCode });
      expect(res.body.data).toEqual({ fromPtCode, isKnown: false, origins: [] });
    }
    await t.close();
    // An integrator that embeds signing (integrator API) hears the room's events; keywords, schemes and
    // wildcards are no address to post to.
    t = await createTestApp({
      PARTNER_ZYPT_ORIGINS: ZYPT,
      FRAME_ANCESTORS:
        "'self' https://crm.example.org https://*.example.com https: https://x.example.org/path",
    });
    const res = await t.agent().call(getPlatformConfig, { userType: 0, fromPtCode: 'BCP_STFWPT' });
    expect(res.body.data).toEqual({
      fromPtCode: 'BCP_STFWPT',
      isKnown: false,
      origins: ['https://crm.example.org'],
    });
  });
});
