import { type KeyObject, createPrivateKey, randomUUID } from 'node:crypto';
import {
  PARTNER_TOKEN_CLOCK_SKEW_SECONDS,
  PARTNER_TOKEN_MAX_LIFETIME_SECONDS,
} from '#contract/calls/partner.ts';
import { Code } from '#contract/codes.ts';
import { AppError } from '../../http/app-error.ts';
import { DEV_ZYPT_PRIVATE_KEY_PEM } from '../../config/partner-dev-keys.ts';
import { decodeJws, signJws, verifyJws } from './jws.ts';
import { type PartnerEntry, type PartnerSettings, findPartner } from '../../config/partner.ts';
import { P } from './texts.ts';

/** What a verified partner token says. */
type PartnerClaims = {
  partner: PartnerEntry;
  partnerUserId: string;
  phone: string;
  name: string | null;
  jti: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
};

const PHONE = /^1\d{10}$/;
const isId = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= 128;
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Verifies a partner's login token, in this order: structure, issuer (a configured partner), where the
 * request comes from (a partner on the public development key answers only this machine), signature with
 * that partner's key and algorithm, audience, not-before / issued-at, expiry and lifetime, the identity
 * claims. Each failure throws its own code (1800-1805, 1100 for the development key from elsewhere).
 * Single use (jti) is the caller's step, since it writes to the database.
 */
export function verifyPartnerToken(
  settings: PartnerSettings,
  token: string,
  now: Date,
  client: { isLocalClient: boolean },
): PartnerClaims {
  const decoded = decodeJws(token);
  if (!decoded) throw new AppError(Code.PartnerTokenMalformed, P.tokenMalformed);
  const { payload } = decoded;
  if (typeof payload.iss !== 'string') throw new AppError(Code.PartnerTokenMalformed, P.tokenMalformed);
  const partner = findPartner(settings, payload.iss);
  if (!partner) throw new AppError(Code.PartnerUnknown, P.partnerUnknown);
  // The development key material is public (config/partner-dev-keys.ts): anyone could sign with it. With HOST=0.0.0.0 it
  // would log anyone on the network in as anyone, so it answers only clients on this machine (issue 23).
  if (partner.isDevelopmentKey && !client.isLocalClient)
    throw new AppError(Code.Refused, P.devKeyLocalOnly(partner.code));
  // Nothing of the payload is trusted before this line except the issuer, which only picks the key.
  if (!verifyJws(decoded, partner.alg, partner.key))
    throw new AppError(Code.PartnerTokenSignature, P.signatureInvalid);

  const aud = payload.aud;
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (!audiences.includes(partner.audience)) throw new AppError(Code.PartnerTokenAudience, P.audience);

  const { exp, iat, nbf } = payload;
  if (!isTime(exp) || !isTime(iat) || (nbf !== undefined && !isTime(nbf)))
    throw new AppError(Code.PartnerTokenMalformed, P.tokenMalformed);
  const nowS = now.getTime() / 1000;
  const skew = PARTNER_TOKEN_CLOCK_SKEW_SECONDS;
  if (iat > nowS + skew || (nbf !== undefined && nbf > nowS + skew))
    throw new AppError(Code.PartnerTokenNotYetValid, P.notYetValid);
  if (exp <= nowS - skew) throw new AppError(Code.PartnerTokenExpired, P.expired);
  // A long-lived token would be a reusable password in a URL: the lifetime is capped, whatever exp says.
  if (exp - iat > PARTNER_TOKEN_MAX_LIFETIME_SECONDS) throw new AppError(Code.PartnerTokenExpired, P.tooLong);

  const { sub, phone, name, jti } = payload;
  if (!isId(sub) || !isId(jti) || typeof phone !== 'string' || !PHONE.test(phone))
    throw new AppError(Code.PartnerTokenMalformed, P.tokenMalformed);
  if (name !== undefined && name !== null && (typeof name !== 'string' || name.length > 64))
    throw new AppError(Code.PartnerTokenMalformed, P.tokenMalformed);
  return { partner, partnerUserId: sub, phone, name: name?.trim() || null, jti, exp };
}

/**
 * The key that signs tokens for a partner in local testing: the shared secret (HS256), the given private
 * key PEM, or — for the development public key only — the development private key of config/partner-dev-keys.ts.
 */
export function signingKeyFor(partner: PartnerEntry, privateKeyPem?: string): KeyObject {
  if (partner.alg === 'HS256') return partner.key;
  if (privateKeyPem) return createPrivateKey(privateKeyPem);
  if (partner.isDevelopmentKey) return createPrivateKey(DEV_ZYPT_PRIVATE_KEY_PEM);
  throw new Error(
    `partner ${partner.code} is configured with a public key: pass its private key (--key FILE)`,
  );
}

/**
 * Mints a partner login token the way a partner platform would (scripts/partner-token.ts, tests, e2e).
 * `overrides` replace or add claims (tests use it to make wrong tokens).
 */
export function mintPartnerToken(input: {
  partner: PartnerEntry;
  key: KeyObject;
  phone: string;
  partnerUserId?: string;
  name?: string;
  ttlSeconds?: number;
  now?: Date;
  overrides?: Record<string, unknown>;
}): string {
  const iat = Math.floor((input.now ?? new Date()).getTime() / 1000);
  const payload: Record<string, unknown> = {
    iss: input.partner.code,
    aud: input.partner.audience,
    sub: input.partnerUserId ?? `${input.partner.code.toLowerCase()}-${input.phone}`,
    phone: input.phone,
    ...(input.name ? { name: input.name } : {}),
    jti: randomUUID(),
    iat,
    exp: iat + (input.ttlSeconds ?? 120),
    ...input.overrides,
  };
  return signJws(payload, input.partner.alg, input.key);
}
