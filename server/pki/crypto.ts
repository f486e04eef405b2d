// One place that wires the WebCrypto of Node into the two ASN.1 libraries, so every pki file signs and
// hashes through the same provider. @peculiar/x509 needs reflect-metadata loaded before it (TOOLCHAIN.md).
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as pkijs from 'pkijs';

export const subtle = webcrypto.subtle as SubtleCrypto;
x509.cryptoProvider.set(webcrypto as Crypto);
pkijs.setEngine(
  'node-webcrypto',
  new pkijs.CryptoEngine({ name: 'node-webcrypto', crypto: webcrypto as Crypto }),
);

/** The RSA signature scheme of this CA: PKCS#1 v1.5 with SHA-256 (what Adobe accepts everywhere). */
export const RSA_SIGN: RsaHashedImportParams = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };

/** The hash a key of this CA signs with: SHA-256 for RSA, the one of the curve's strength for EC (P-384: SHA-384). */
export function signHash(key: CryptoKey): 'SHA-256' | 'SHA-384' | 'SHA-512' {
  if (key.algorithm.name !== 'ECDSA') return 'SHA-256';
  const curve = (key.algorithm as EcKeyAlgorithm).namedCurve;
  return curve === 'P-384' ? 'SHA-384' : curve === 'P-521' ? 'SHA-512' : 'SHA-256';
}

/**
 * The WebCrypto sign parameters for a key of this CA: RSA keys sign sha256WithRSAEncryption, EC keys
 * ECDSA with their curve's hash (P-256: ecdsa-with-SHA256, P-384: ecdsa-with-SHA384). @peculiar/x509 and
 * pkijs write the matching algorithm identifier and the DER Ecdsa-Sig-Value from these.
 */
export function signParams(key: CryptoKey): RsaHashedImportParams | EcdsaParams {
  return key.algorithm.name === 'ECDSA' ? { name: 'ECDSA', hash: signHash(key) } : RSA_SIGN;
}

export { pkijs, x509 };
export type { JsonNameParams } from '@peculiar/x509';

/** A copy of the bytes as a fresh ArrayBuffer (the libraries want ArrayBuffer, not views into a pool). */
export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  // new Uint8Array(view) copies; Buffer#slice would not (it returns a view into a shared pool).
  return new Uint8Array(bytes).buffer as ArrayBuffer;
}

export function toHex(bytes: Uint8Array | ArrayBuffer): string {
  return Buffer.from(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes).toString('hex');
}

/**
 * A random positive serial of `length` bytes. The high bit is cleared so the DER INTEGER stays positive
 * without a leading zero byte, and the first byte is never zero so the encoding stays minimal.
 */
export function randomSerial(length = 16): Uint8Array {
  const bytes = new Uint8Array(length);
  webcrypto.getRandomValues(bytes);
  bytes[0] &= 0x7f;
  if (bytes[0] === 0) bytes[0] = 1;
  return bytes;
}

/** Canonical hex of a serial number: lower case, without the sign byte a DER INTEGER may carry. */
export function normalizeSerial(hex: string): string {
  return hex.toLowerCase().replace(/^(00)+(?=.)/, '');
}

export function pemEncode(der: Uint8Array, label: string): string {
  const b64 = Buffer.from(der).toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** The DER inside a PEM block (the first one), without parsing it. */
export function pemDecode(pem: string): Uint8Array {
  const body = /-----BEGIN [^-]+-----([A-Za-z0-9+/=\s]+)-----END [^-]+-----/.exec(pem);
  if (!body) throw new Error('not a PEM block');
  return new Uint8Array(Buffer.from(body[1].replace(/\s+/g, ''), 'base64'));
}

/** Dates in DER (UTCTime/GeneralizedTime) carry whole seconds here: no fractions to trip strict parsers. */
export function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}
