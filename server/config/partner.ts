import { type KeyObject, createPublicKey, createSecretKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DEV_HY_SECRET, DEV_ZHDB_SECRET, DEV_ZYPT_PUBLIC_KEY_PEM } from './partner-dev-keys.ts';

/**
 * The partner platforms and the central user centre, read from the environment by server/config.ts at start.
 *
 *   PARTNERS                    comma-separated partner codes (development default 'ZHDB,ZYPT'; production '')
 *   PARTNER_AUDIENCE            the `aud` partners put in their tokens for this platform (default 'bcp-esign')
 *   PARTNER_<CODE>_NAME         display name (default: the spec's name of ZHDB / ZYPT, else the code)
 *   PARTNER_<CODE>_SECRET       HS256 shared secret (at least 32 characters), or
 *   PARTNER_<CODE>_PUBLIC_KEY   PEM public key (RSA >= 2048 bits: RS256; EC P-256: ES256), or
 *   PARTNER_<CODE>_PUBLIC_KEY_FILE  path of such a PEM file
 *   PARTNER_<CODE>_AUDIENCE     audience accepted from this partner (default PARTNER_AUDIENCE)
 *   PARTNER_<CODE>_ORIGINS      space/comma-separated origins allowed to embed the product (kept for embedding)
 *   HY_CENTER                   central user centre: 'development' (default outside production) or 'none'
 *   HY_DEV_SECRET               secret of the development centre's hy_session cookie (default: a public dev value)
 *
 * Outside production, ZHDB and ZYPT fall back to the public development material of partner-dev-keys.ts.
 * Production never falls back, and refuses that material when it is given explicitly.
 */

/** The signature algorithms a partner's token may use (modules/partner/jws.ts verifies them). */
export type JwsAlg = 'HS256' | 'RS256' | 'ES256';

export type PartnerEntry = {
  code: string;
  name: string;
  alg: JwsAlg;
  /** HS256: the secret key; RS256/ES256: the partner's public key. */
  key: KeyObject;
  audience: string;
  /** Origins allowed to frame the product for this partner (used when embedding arrives). */
  origins: string[];
  /** True when the key is the public development material (never in production). */
  isDevelopmentKey: boolean;
};

export type CentralSettings = { kind: 'none' } | { kind: 'development'; secret: string };

export type PartnerSettings = {
  audience: string;
  partners: PartnerEntry[];
  central: CentralSettings;
};

type PartnerSettingsResult = { ok: true; value: PartnerSettings } | { ok: false; issues: string[] };

const DEFAULT_AUDIENCE = 'bcp-esign';
const DEFAULT_NAMES: Record<string, string> = { ZHDB: '担保公司平台', ZYPT: '科研平台' };
const CODE = /^[A-Z][A-Z0-9_]{1,31}$/;
const MIN_SECRET_LENGTH = 32;

const text = (env: Record<string, string | undefined>, name: string) => {
  const v = env[name]?.trim();
  return v ? v : undefined;
};

/** The public-key algorithm a PEM key supports, or an explanation why none. */
function publicKeyAlg(key: KeyObject): JwsAlg | string {
  if (key.asymmetricKeyType === 'rsa') {
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    return bits >= 2048 ? 'RS256' : `RSA key of ${bits} bits is too short (at least 2048)`;
  }
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    return curve === 'prime256v1' ? 'ES256' : `EC curve ${curve} is not supported (only P-256 for ES256)`;
  }
  return `key type ${key.asymmetricKeyType} is not supported (RSA or EC P-256)`;
}

const sameKey = (a: KeyObject, b: KeyObject) =>
  a.export({ type: 'spki', format: 'der' }).equals(b.export({ type: 'spki', format: 'der' }));

function readPartner(
  env: Record<string, string | undefined>,
  code: string,
  audience: string,
  isProduction: boolean,
  issues: string[],
): PartnerEntry | null {
  const v = (suffix: string) => `PARTNER_${code}_${suffix}`;
  const secret = text(env, v('SECRET'));
  let pem = text(env, v('PUBLIC_KEY'));
  const pemFile = text(env, v('PUBLIC_KEY_FILE'));
  if ([secret, pem, pemFile].filter(Boolean).length > 1) {
    issues.push(
      `${v('SECRET')}: set only one of ${v('SECRET')}, ${v('PUBLIC_KEY')}, ${v('PUBLIC_KEY_FILE')}`,
    );
    return null;
  }
  if (pemFile) {
    try {
      pem = readFileSync(pemFile, 'utf8');
    } catch (err) {
      issues.push(`${v('PUBLIC_KEY_FILE')}: cannot read ${pemFile} (${(err as Error).message})`);
      return null;
    }
  }
  let alg: JwsAlg;
  let key: KeyObject;
  let isDevelopmentKey = false;
  if (!secret && !pem) {
    // Development defaults: only outside production, only for the two partners of the spec.
    if (!isProduction && code === 'ZHDB') {
      alg = 'HS256';
      key = createSecretKey(Buffer.from(DEV_ZHDB_SECRET, 'utf8'));
      isDevelopmentKey = true;
    } else if (!isProduction && code === 'ZYPT') {
      alg = 'ES256';
      key = createPublicKey(DEV_ZYPT_PUBLIC_KEY_PEM);
      isDevelopmentKey = true;
    } else {
      issues.push(
        `${v('SECRET')}: partner ${code} needs ${v('SECRET')}, ${v('PUBLIC_KEY')} or ${v('PUBLIC_KEY_FILE')}`,
      );
      return null;
    }
  } else if (secret) {
    if (secret.length < MIN_SECRET_LENGTH) {
      issues.push(`${v('SECRET')}: must have at least ${MIN_SECRET_LENGTH} characters`);
      return null;
    }
    if (secret === DEV_ZHDB_SECRET && isProduction) {
      issues.push(`${v('SECRET')}: the public development secret is refused in production`);
      return null;
    }
    alg = 'HS256';
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    isDevelopmentKey = secret === DEV_ZHDB_SECRET;
  } else {
    const name = pemFile ? v('PUBLIC_KEY_FILE') : v('PUBLIC_KEY');
    try {
      key = createPublicKey(pem!.replace(/\\n/g, '\n'));
    } catch (err) {
      issues.push(`${name}: not a PEM public key (${(err as Error).message})`);
      return null;
    }
    const found = publicKeyAlg(key);
    if (found !== 'RS256' && found !== 'ES256') {
      issues.push(`${name}: ${found}`);
      return null;
    }
    alg = found;
    isDevelopmentKey = sameKey(key, createPublicKey(DEV_ZYPT_PUBLIC_KEY_PEM));
    if (isDevelopmentKey && isProduction) {
      issues.push(`${name}: the public development key is refused in production`);
      return null;
    }
  }
  const origins = (text(env, v('ORIGINS')) ?? '').split(/[\s,]+/).filter(Boolean);
  for (const origin of origins) {
    let ok = false;
    try {
      const u = new URL(origin);
      ok = (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === origin;
    } catch {
      // Expected: not a URL; reported below as a bad origin.
      ok = false;
    }
    if (!ok) issues.push(`${v('ORIGINS')}: ${origin} is not an origin like https://partner.example.com`);
  }
  return {
    code,
    name: text(env, v('NAME')) ?? DEFAULT_NAMES[code] ?? code,
    alg,
    key,
    audience: text(env, v('AUDIENCE')) ?? audience,
    origins,
    isDevelopmentKey,
  };
}

/** Reads the partner and central-platform settings; every problem is named by its variable. */
export function loadPartnerSettings(
  env: Record<string, string | undefined>,
  isProduction: boolean,
): PartnerSettingsResult {
  const issues: string[] = [];
  const audience = text(env, 'PARTNER_AUDIENCE') ?? DEFAULT_AUDIENCE;
  const list = env.PARTNERS ?? (isProduction ? '' : 'ZHDB,ZYPT');
  const codes = [...new Set(list.split(/[\s,]+/).filter(Boolean))];
  const partners: PartnerEntry[] = [];
  for (const code of codes) {
    if (!CODE.test(code) || code === 'BCP_STFWPT') {
      issues.push(`PARTNERS: ${code} is not a partner platform code (A-Z, 0-9, _; not the default platform)`);
      continue;
    }
    const entry = readPartner(env, code, audience, isProduction, issues);
    if (entry) partners.push(entry);
  }

  const hy = text(env, 'HY_CENTER') ?? (isProduction ? 'none' : 'development');
  let central: CentralSettings = { kind: 'none' };
  if (hy === 'development') {
    if (isProduction) issues.push('HY_CENTER: the development central user centre is refused in production');
    const secret = text(env, 'HY_DEV_SECRET') ?? DEV_HY_SECRET;
    if (secret.length < MIN_SECRET_LENGTH)
      issues.push(`HY_DEV_SECRET: must have at least ${MIN_SECRET_LENGTH} characters`);
    central = { kind: 'development', secret };
  } else if (hy !== 'none') {
    issues.push(
      `HY_CENTER: must be 'development' or 'none' (a production central user centre is not built yet)`,
    );
  }
  return issues.length ? { ok: false, issues } : { ok: true, value: { audience, partners, central } };
}

export const findPartner = (settings: PartnerSettings, code: string): PartnerEntry | undefined =>
  settings.partners.find((p) => p.code === code);
