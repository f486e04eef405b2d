import { type KeyObject, createHmac, sign, timingSafeEqual, verify } from 'node:crypto';

/**
 * Compact JWS (RFC 7515) with the three algorithms partners may use: HS256, RS256, ES256.
 * Written on node:crypto so that the rules are all in view: the algorithm comes from this platform's
 * configuration of the partner, never from the token's header alone ('none' and mismatches are refused).
 */

import type { JwsAlg } from '../../config/partner.ts';

type DecodedJws = {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
};

const B64URL = /^[A-Za-z0-9_-]*$/;

const b64urlJson = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

function parseJsonObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    // Expected: the part is not base64url JSON: not a JWS.
    return null;
  }
}

/** Splits a compact JWS into its parts; null when it is not three base64url parts with JSON objects. */
export function decodeJws(token: string): DecodedJws | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !B64URL.test(p)) || !parts[0] || !parts[1] || !parts[2])
    return null;
  const header = parseJsonObject(parts[0]);
  const payload = parseJsonObject(parts[1]);
  if (!header || !payload) return null;
  return {
    header,
    payload,
    signingInput: `${parts[0]}.${parts[1]}`,
    signature: Buffer.from(parts[2], 'base64url'),
  };
}

/**
 * Whether the signature of a decoded JWS verifies with `key` under `alg`. The header's alg must equal `alg`
 * (the configured one): a token cannot pick a weaker algorithm or turn a public key into an HMAC secret.
 */
export function verifyJws(decoded: DecodedJws, alg: JwsAlg, key: KeyObject): boolean {
  if (decoded.header.alg !== alg) return false;
  // Extensions the verifier must understand: none are supported, so any is a refusal (RFC 7515 §4.1.11).
  if (decoded.header.crit !== undefined) return false;
  const data = Buffer.from(decoded.signingInput, 'ascii');
  try {
    switch (alg) {
      case 'HS256': {
        const expected = createHmac('sha256', key).update(data).digest();
        return expected.length === decoded.signature.length && timingSafeEqual(expected, decoded.signature);
      }
      case 'RS256':
        return verify('sha256', data, key, decoded.signature);
      case 'ES256':
        // JWS carries ES256 signatures as raw r||s (64 bytes), not DER.
        return (
          decoded.signature.length === 64 &&
          verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, decoded.signature)
        );
    }
  } catch {
    // Expected: a signature or key that node:crypto cannot use (malformed input): not valid.
    return false;
  }
}

/** Signs a payload as a compact JWS. `key`: the HS256 secret key, or the RS256/ES256 private key. */
export function signJws(payload: Record<string, unknown>, alg: JwsAlg, key: KeyObject): string {
  const input = `${b64urlJson({ alg, typ: 'JWT' })}.${b64urlJson(payload)}`;
  const data = Buffer.from(input, 'ascii');
  let signature: Buffer;
  if (alg === 'HS256') signature = createHmac('sha256', key).update(data).digest();
  else if (alg === 'RS256') signature = sign('sha256', data, key);
  else signature = sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}
