import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#server/config.ts';
import { DEV_ZHDB_SECRET, DEV_ZYPT_PUBLIC_KEY_PEM } from '#server/config/partner-dev-keys.ts';

const PROD = { NODE_ENV: 'production', ESIGN_MASTER_KEY: 'k'.repeat(32) };
const GOOD_SECRET = 's'.repeat(40);

describe('partner settings', () => {
  it('development: ZHDB (HS256) and ZYPT (ES256) with the development keys, the development centre', () => {
    const { partners } = loadConfig({});
    expect(partners.partners.map((p) => [p.code, p.alg, p.isDevelopmentKey])).toEqual([
      ['ZHDB', 'HS256', true],
      ['ZYPT', 'ES256', true],
    ]);
    expect(partners.audience).toBe('bcp-esign');
    expect(partners.central.kind).toBe('development');
  });

  it('production: no partner and no central centre unless configured', () => {
    const { partners } = loadConfig(PROD);
    expect(partners.partners).toEqual([]);
    expect(partners.central.kind).toBe('none');
  });

  it('production refuses the development secret, the development key and the development centre', () => {
    expect(() => loadConfig({ ...PROD, PARTNERS: 'ZHDB', PARTNER_ZHDB_SECRET: DEV_ZHDB_SECRET })).toThrow(
      /PARTNER_ZHDB_SECRET: the public development secret is refused in production/,
    );
    expect(() =>
      loadConfig({ ...PROD, PARTNERS: 'ZYPT', PARTNER_ZYPT_PUBLIC_KEY: DEV_ZYPT_PUBLIC_KEY_PEM }),
    ).toThrow(/PARTNER_ZYPT_PUBLIC_KEY: the public development key is refused/);
    expect(() => loadConfig({ ...PROD, HY_CENTER: 'development' })).toThrow(/HY_CENTER/);
    // A listed partner without material never falls back to the development one in production.
    expect(() => loadConfig({ ...PROD, PARTNERS: 'ZHDB' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...PROD, PARTNERS: 'ZHDB' })).toThrow(
      /PARTNER_ZHDB_SECRET: partner ZHDB needs/,
    );
  });

  it('production accepts a real secret and a public key file; names bad values by variable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'partner-key-'));
    const file = join(dir, 'zypt.pem');
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(file, publicKey.export({ type: 'spki', format: 'pem' }));
    const { partners } = loadConfig({
      ...PROD,
      PARTNERS: 'ZHDB,ZYPT',
      PARTNER_ZHDB_SECRET: GOOD_SECRET,
      PARTNER_ZHDB_ORIGINS: 'https://zhdb.example.com',
      PARTNER_ZYPT_PUBLIC_KEY_FILE: file,
    });
    expect(partners.partners.map((p) => [p.code, p.alg, p.origins])).toEqual([
      ['ZHDB', 'HS256', ['https://zhdb.example.com']],
      ['ZYPT', 'ES256', []],
    ]);
    expect(() => loadConfig({ PARTNER_ZHDB_SECRET: 'short' })).toThrow(
      /PARTNER_ZHDB_SECRET: must have at least 32/,
    );
    expect(() => loadConfig({ PARTNER_ZYPT_PUBLIC_KEY_FILE: join(dir, 'missing.pem') })).toThrow(
      /PARTNER_ZYPT_PUBLIC_KEY_FILE: cannot read/,
    );
    expect(() => loadConfig({ PARTNER_ZHDB_ORIGINS: 'zhdb.example.com/path' })).toThrow(
      /PARTNER_ZHDB_ORIGINS/,
    );
    expect(() => loadConfig({ PARTNERS: 'bad code' })).toThrow(
      /PARTNERS: bad is not a partner platform code/,
    );
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    expect(() => loadConfig({ PARTNER_ZYPT_PUBLIC_KEY: weak.toString() })).toThrow(/too short/);
  });
});
