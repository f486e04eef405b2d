/**
 * Just enough DER for the hot paths (the TSA's tokens, the signer's CMS): structures are written byte by
 * byte, with no object model and no re-encoding, and read as TLVs in place. Shared by server/pki and
 * server/pdf, which do not import each other.
 */

export type Tlv = { tag: number; start: number; headerLength: number; length: number; end: number };

function lengthBytes(n: number): number[] {
  if (n < 0x80) return [n];
  const out: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return [0x80 | out.length, ...out];
}

/** One TLV from a tag and already-encoded content. */
export function tlv(tag: number, ...content: Uint8Array[]): Uint8Array {
  let len = 0;
  for (const c of content) len += c.length;
  const head = [tag, ...lengthBytes(len)];
  const out = new Uint8Array(head.length + len);
  out.set(head, 0);
  let p = head.length;
  for (const c of content) {
    out.set(c, p);
    p += c.length;
  }
  return out;
}

export const seq = (...c: Uint8Array[]) => tlv(0x30, ...c);
export const octets = (b: Uint8Array) => tlv(0x04, b);
export const NULL = new Uint8Array([0x05, 0x00]);

/** Lexicographic order of encodings, as DER wants for SET OF (X.690 §11.6). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** SET OF with its members in DER order; `tag` 0xa0/0xa1 for the IMPLICIT [0]/[1] forms of CMS. */
export function setOf(members: readonly Uint8Array[], tag = 0x31): Uint8Array {
  return tlv(tag, ...[...members].sort(compareBytes));
}

/** INTEGER 0..127. */
export function smallInt(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < 0 || n > 127) throw new RangeError('smallInt takes 0..127');
  return new Uint8Array([0x02, 0x01, n]);
}

/** A positive INTEGER from big-endian magnitude bytes (minimal: leading zeros dropped, a sign byte added). */
export function unsignedInt(magnitude: Uint8Array): Uint8Array {
  let i = 0;
  while (i < magnitude.length - 1 && magnitude[i] === 0) i++;
  const v = magnitude.subarray(i);
  return v.length > 0 && v[0] & 0x80 ? tlv(0x02, new Uint8Array([0]), v) : tlv(0x02, v);
}

/**
 * An ECDSA signature as X.509, CRLs, OCSP and CMS carry it (DER Ecdsa-Sig-Value, SEQUENCE { r, s }) from
 * the IEEE P1363 form WebCrypto gives (r || s, each the curve's size).
 */
export function ecdsaP1363ToDer(rawSig: Uint8Array): Uint8Array {
  const half = rawSig.length / 2;
  return seq(unsignedInt(rawSig.subarray(0, half)), unsignedInt(rawSig.subarray(half)));
}

export function oid(dotted: string): Uint8Array {
  const parts = dotted.split('.').map((p) => BigInt(p));
  const body: number[] = [Number(parts[0] * 40n + parts[1])];
  for (const p of parts.slice(2)) {
    const bytes: number[] = [];
    let v = p;
    do {
      bytes.unshift(Number(v & 0x7fn));
      v >>= 7n;
    } while (v > 0n);
    for (let i = 0; i < bytes.length - 1; i++) bytes[i] |= 0x80;
    body.push(...bytes);
  }
  return tlv(0x06, new Uint8Array(body));
}

const two = (n: number) => String(n).padStart(2, '0');

/** GeneralizedTime YYYYMMDDHHMMSSZ (UTC, whole seconds: DER forbids a trailing zero fraction). */
export function generalizedTime(d: Date): Uint8Array {
  const s =
    `${String(d.getUTCFullYear()).padStart(4, '0')}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}` +
    `${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}Z`;
  return tlv(0x18, Buffer.from(s, 'ascii'));
}

/**
 * A CMS/X.509 Time: UTCTime YYMMDDHHMMSSZ for 1950..2049, GeneralizedTime otherwise (RFC 5652 §11.3,
 * RFC 5280 §4.1.2.5).
 */
export function time(d: Date): Uint8Array {
  const y = d.getUTCFullYear();
  if (y < 1950 || y > 2049) return generalizedTime(d);
  const s =
    `${two(y % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}` +
    `${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}Z`;
  return tlv(0x17, Buffer.from(s, 'ascii'));
}

export function readTlv(b: Uint8Array, start: number): Tlv {
  if (start + 2 > b.length) throw new RangeError('DER: truncated');
  const tag = b[start];
  let p = start + 1;
  let length = b[p++];
  if (length & 0x80) {
    const n = length & 0x7f;
    if (n === 0 || n > 4) throw new RangeError('DER: unsupported length');
    if (p + n > b.length) throw new RangeError('DER: truncated');
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + b[p++];
  }
  const end = p + length;
  if (end > b.length) throw new RangeError('DER: truncated');
  return { tag, start, headerLength: p - start, length, end };
}

/** The children of a constructed TLV. */
export function children(b: Uint8Array, t: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let p = t.start + t.headerLength; p < t.end; ) {
    const c = readTlv(b, p);
    out.push(c);
    p = c.end;
  }
  return out;
}

export const raw = (b: Uint8Array, t: Tlv) => b.subarray(t.start, t.end);
