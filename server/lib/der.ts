/**
 * The one DER module of the server, shared by server/pki and server/pdf (lib imports nothing of the server).
 *
 * Writing: structures are written byte by byte, exactly the bytes we mean, with no object model and no
 * library re-encoding signed attributes (the TSA's tokens, the signer's CMS).
 *
 * Reading: a minimal BER/DER reader for the hot paths (CMS, certificates, keys, time-stamp tokens, OCSP,
 * CRLs). It reads elements in place — offsets into the original bytes, no copies, no object tree — so a
 * signature with a dozen certificates costs microseconds instead of the milliseconds a full ASN.1 object
 * model takes. Every read is bounds-checked; a malformed encoding yields undefined, and the caller decides
 * what that means (the verifier: a finding; `certFields` and the key store: a RangeError).
 */

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
function compareBytes(a: Uint8Array, b: Uint8Array): number {
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

// ---------------------------------------------------------------------------------------------------------
// Reading

/**
 * One element. `tag` is the first identifier octet (class, constructed bit, low tag number; 0x1f
 * marks a high tag number, then `tagNum` holds it). `end` is just after the element (after the
 * end-of-contents octets for an indefinite length); the content lies in [headerEnd, contentEnd).
 */
export type Tlv = {
  tag: number;
  tagNum: number;
  start: number;
  headerEnd: number;
  contentEnd: number;
  end: number;
};

/** Nesting bound for indefinite-length scanning and tree walks (hostile input). */
const MAX_DEPTH = 100;

/** Universal tags that DER/BER never encode as constructed. */
const PRIMITIVE_ONLY = new Set([1, 2, 5, 6, 9, 13, 14, 23, 24, 31, 32, 33, 34]);

export const T = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  ENUMERATED: 0x0a,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

/** Context-specific tag octet: [n] constructed (EXPLICIT or constructed IMPLICIT) / primitive. */
export const ctx = (n: number, constructed = true): number => (constructed ? 0xa0 : 0x80) | n;

function readTlvAt(b: Uint8Array, p: number, limit: number, depth: number): Tlv | undefined {
  if (depth > MAX_DEPTH || p + 2 > limit) return undefined;
  const tag = b[p];
  let q = p + 1;
  let tagNum = tag & 0x1f;
  if (tagNum === 0x1f) {
    tagNum = 0;
    for (let i = 0; ; i++) {
      if (q >= limit || i >= 4) return undefined;
      const c = b[q++];
      tagNum = tagNum * 128 + (c & 0x7f);
      if ((c & 0x80) === 0) break;
    }
    if (q >= limit) return undefined;
  }
  let len = b[q++];
  if (len === 0x80) {
    // indefinite length: constructed only, content runs to the end-of-contents octets 00 00
    if ((tag & 0x20) === 0) return undefined;
    const headerEnd = q;
    let r = q;
    for (let guard = 0; guard < 1_000_000; guard++) {
      if (r + 2 > limit) return undefined;
      if (b[r] === 0 && b[r + 1] === 0)
        return { tag, tagNum, start: p, headerEnd, contentEnd: r, end: r + 2 };
      const c = readTlvAt(b, r, limit, depth + 1);
      if (!c) return undefined;
      r = c.end;
    }
    return undefined;
  }
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n > 4 || q + n > limit) return undefined;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + b[q++];
  }
  if (q + len > limit) return undefined;
  return { tag, tagNum, start: p, headerEnd: q, contentEnd: q + len, end: q + len };
}

/** Reads the element at `p` (which must end at or before `limit`). */
export function readTlv(b: Uint8Array, p: number, limit = b.length): Tlv | undefined {
  return readTlvAt(b, p, limit, 0);
}

/** Reads the element at `p` and requires it to span exactly [p, end). */
export function readWhole(b: Uint8Array, p = 0, end = b.length): Tlv | undefined {
  const t = readTlvAt(b, p, end, 0);
  return t && t.end === end ? t : undefined;
}

/** The children of a constructed element (at most `max`); stops at the first unreadable one. */
export function children(b: Uint8Array, t: Tlv, max = 1_000_000): Tlv[] {
  const out: Tlv[] = [];
  let p = t.headerEnd;
  while (p < t.contentEnd && out.length < max) {
    const c = readTlvAt(b, p, t.contentEnd, 1);
    if (!c) return out;
    out.push(c);
    p = c.end;
  }
  return out;
}

/** All children, or undefined when the content is not a clean sequence of elements. */
export function allChildren(b: Uint8Array, t: Tlv): Tlv[] | undefined {
  if ((t.tag & 0x20) === 0) return undefined;
  const out: Tlv[] = [];
  let p = t.headerEnd;
  while (p < t.contentEnd) {
    const c = readTlvAt(b, p, t.contentEnd, 1);
    if (!c) return undefined;
    out.push(c);
    p = c.end;
  }
  return out;
}

/** The elements `x` of `b` and `y` of `c` have identical encodings. */
export function bytesEq(b: Uint8Array, x: Tlv, c: Uint8Array, y: Tlv): boolean {
  const lx = x.end - x.start;
  if (lx !== y.end - y.start) return false;
  for (let i = 0; i < lx; i++) if (b[x.start + i] !== c[y.start + i]) return false;
  return true;
}

/** Byte-wise equality; false when either side is missing. */
export function eqBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The whole element's bytes (a view, not a copy). */
export const raw = (b: Uint8Array, t: Tlv): Uint8Array => b.subarray(t.start, t.end);
/** The content bytes of a primitive element (a view). */
export const content = (b: Uint8Array, t: Tlv): Uint8Array => b.subarray(t.headerEnd, t.contentEnd);

/** Dotted OBJECT IDENTIFIER text, or undefined when it is not a well-formed OID. */
export function oidOf(b: Uint8Array, t: Tlv | undefined): string | undefined {
  if (!t || t.tag !== T.OID || t.contentEnd === t.headerEnd) return undefined;
  const parts: number[] = [];
  let v = 0;
  let first = true;
  for (let i = t.headerEnd; i < t.contentEnd; i++) {
    const c = b[i];
    v = v * 128 + (c & 0x7f);
    if (v > Number.MAX_SAFE_INTEGER / 256) return undefined;
    if ((c & 0x80) === 0) {
      if (first) {
        const x = v < 40 ? 0 : v < 80 ? 1 : 2;
        parts.push(x, v - 40 * x);
        first = false;
      } else parts.push(v);
      v = 0;
    } else if (i === t.contentEnd - 1) return undefined;
  }
  return parts.join('.');
}

/** Content of an OCTET STRING, joining the segments of a constructed (BER) one. */
export function octetsOf(b: Uint8Array, t: Tlv | undefined, depth = 0): Uint8Array | undefined {
  if (!t || depth > 8) return undefined;
  if (t.tag === T.OCTET_STRING) return content(b, t);
  if (t.tag !== (T.OCTET_STRING | 0x20)) return undefined;
  const parts: Uint8Array[] = [];
  for (const c of allChildren(b, t) ?? []) {
    const p = octetsOf(b, c, depth + 1);
    if (!p) return undefined;
    parts.push(p);
  }
  return Buffer.concat(parts);
}

/** Content of a primitive BIT STRING without its unused-bits octet. */
export function bitsOf(b: Uint8Array, t: Tlv | undefined): Uint8Array | undefined {
  if (!t || t.tag !== T.BIT_STRING || t.contentEnd === t.headerEnd) return undefined;
  return b.subarray(t.headerEnd + 1, t.contentEnd);
}

/** A small non-negative INTEGER (versions, salt lengths); undefined when not one. */
export function smallIntOf(b: Uint8Array, t: Tlv | undefined): number | undefined {
  if (!t || t.tag !== T.INTEGER) return undefined;
  const n = t.contentEnd - t.headerEnd;
  if (n === 0 || n > 6 || b[t.headerEnd] & 0x80) return undefined;
  let v = 0;
  for (let i = t.headerEnd; i < t.contentEnd; i++) v = v * 256 + b[i];
  return v;
}

function latin1(b: Uint8Array, s: number, e: number): string {
  let out = '';
  for (let i = s; i < e; i++) out += String.fromCharCode(b[i]);
  return out;
}

/** UTCTime or GeneralizedTime as a Date (UTC), or undefined. */
export function timeOf(b: Uint8Array, t: Tlv | undefined): Date | undefined {
  if (!t) return undefined;
  const s = latin1(b, t.headerEnd, t.contentEnd);
  let f: (string | undefined)[];
  let year: number;
  let ms = 0;
  if (t.tag === T.UTC_TIME) {
    const m = s.match(/^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?(Z|[+-]\d{4})$/);
    if (!m) return undefined;
    year = Number(m[1]);
    year += year >= 50 ? 1900 : 2000;
    f = [m[2], m[3], m[4], m[5], m[6], m[7]];
  } else if (t.tag === T.GENERALIZED_TIME) {
    const m = s.match(/^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})?(\d{2})?(?:[.,](\d+))?(Z|[+-]\d{4})?$/);
    if (!m) return undefined;
    year = Number(m[1]);
    if (m[7]) ms = Math.floor(Number(`0.${m[7]}`) * 1000);
    f = [m[2], m[3], m[4], m[5], m[6], m[8]];
  } else return undefined;
  const [mo, d, h, mi = '00', se = '00', tz = 'Z'] = f as string[];
  let v = Date.UTC(year, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se), ms);
  if (tz !== 'Z') {
    const sign = tz[0] === '-' ? -1 : 1;
    v -= sign * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(3, 5))) * 60_000;
  }
  return Number.isNaN(v) ? undefined : new Date(v);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A directory string's text (UTF8, Printable, IA5, Teletex, BMP, Universal, ...), else undefined. */
export function stringOf(b: Uint8Array, t: Tlv | undefined): string | undefined {
  if (!t) return undefined;
  const c = content(b, t);
  switch (t.tag) {
    case 0x0c: // UTF8String
      try {
        return utf8.decode(c);
      } catch {
        return latin1(b, t.headerEnd, t.contentEnd);
      }
    case 0x12: // Numeric
    case 0x13: // Printable
    case 0x14: // Teletex
    case 0x15: // Videotex
    case 0x16: // IA5
    case 0x19: // Graphic
    case 0x1a: // Visible
    case 0x1b: // General
    case 0x1d: // Character
      return latin1(b, t.headerEnd, t.contentEnd);
    case 0x1e: {
      // BMPString: UTF-16BE
      let s = '';
      for (let i = 0; i + 1 < c.length; i += 2) s += String.fromCharCode((c[i] << 8) | c[i + 1]);
      return s;
    }
    case 0x1c: {
      // UniversalString: UTF-32BE
      let s = '';
      for (let i = 0; i + 3 < c.length; i += 4) {
        const cp = ((c[i] << 24) | (c[i + 1] << 16) | (c[i + 2] << 8) | c[i + 3]) >>> 0;
        s += cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
      }
      return s;
    }
    default:
      return undefined;
  }
}

/**
 * Walks a BER tree and reports whether it is well formed and whether any INTEGER is not minimally
 * encoded. Like common ASN.1 decoders, the content of a primitive OCTET STRING or BIT STRING (no
 * unused bits) is also walked when it is exactly one well-formed element: signature values, public keys
 * and encapsulated content carry INTEGERs too. A malformed INTEGER only counts where the enclosing
 * encoding is readable.
 */
export function scanBer(
  b: Uint8Array,
  start: number,
  end: number,
  budget = { nodes: 500_000 },
): { wellFormed: boolean; malformedInteger: boolean } {
  let malformedInteger = false;
  // returns the end of the element, or -1 when it is not well formed
  const walk = (p: number, limit: number, depth: number): number => {
    if (depth > MAX_DEPTH || --budget.nodes < 0) return -1;
    const t = readTlvAt(b, p, limit, 0);
    if (!t) return -1;
    const cls = t.tag & 0xc0;
    const constructed = (t.tag & 0x20) !== 0;
    if (cls === 0 && t.tagNum !== 0x1f) {
      const n = t.tag & 0x1f;
      if (n === 0 && (constructed || t.contentEnd !== t.headerEnd)) return -1;
      if (n === 15 || (n >= 37 && (t.tag & 0x1f) !== 0x1f)) return -1;
      if (constructed && PRIMITIVE_ONLY.has(n)) return -1;
      if (!constructed && (n === 16 || n === 17)) return -1; // SEQUENCE and SET are always constructed
    }
    if (constructed) {
      // a constructed OCTET STRING / BIT STRING is made of segments of its own type only
      const segment = t.tag === 0x24 ? T.OCTET_STRING : t.tag === 0x23 ? T.BIT_STRING : 0;
      let q = t.headerEnd;
      while (q < t.contentEnd) {
        if (segment && (b[q] & 0xdf) !== segment) return -1;
        const r = walk(q, t.contentEnd, depth + 1);
        if (r < 0) return -1;
        q = r;
      }
      return t.end;
    }
    if (t.tag === T.OID || t.tag === 0x0d) {
      // every sub-identifier must end (high bit clear on its last octet)
      if (t.contentEnd > t.headerEnd && b[t.contentEnd - 1] & 0x80) return -1;
    } else if (t.tag === T.INTEGER) {
      const n = t.contentEnd - t.headerEnd;
      const v0 = b[t.headerEnd];
      const v1 = b[t.headerEnd + 1];
      if (n > 1 && ((v0 === 0 && v1 < 0x80) || (v0 === 0xff && v1 >= 0x80))) malformedInteger = true;
    } else if (t.tag === T.BIT_STRING) {
      if (t.contentEnd > t.headerEnd && b[t.headerEnd] > 7) return -1;
      if (t.contentEnd - t.headerEnd > 1 && b[t.headerEnd] === 0)
        embeddedScan(t.headerEnd + 1, t.contentEnd, depth);
    } else if (t.tag === T.OCTET_STRING) {
      if (t.contentEnd > t.headerEnd) embeddedScan(t.headerEnd, t.contentEnd, depth);
    }
    return t.end;
  };
  const embeddedScan = (s: number, e: number, depth: number) => {
    const before = malformedInteger;
    const r = walk(s, e, depth + 1);
    // only a complete, readable embedded element counts, as a decoder would keep it
    if (r !== e) malformedInteger = before;
  };
  const r = walk(start, end, 0);
  return { wellFormed: r >= 0, malformedInteger: r >= 0 && malformedInteger };
}

/**
 * What is wrong with the encoding of element `t` of `b` (its whole subtree, as scanBer walks it): a
 * sentence, or undefined when it is well formed with minimal INTEGERs.
 */
export function berProblem(b: Uint8Array, t: Tlv): string | undefined {
  const s = scanBer(b, t.start, t.end);
  if (!s.wellFormed) return 'is not decodable BER';
  return s.malformedInteger ? 'contains a malformed INTEGER' : undefined;
}

/** Issuer name and serial number TLVs of an X.509 certificate. */
export function certIssuerSerial(der: Uint8Array): { issuer: Tlv; serial: Tlv; subject: Tlv } | undefined {
  const cert = readTlv(der, 0);
  if (!cert) return undefined;
  const tbs = children(der, cert, 1)[0];
  if (!tbs) return undefined;
  const f = children(der, tbs, 8);
  const i = f[0]?.tag === 0xa0 ? 1 : 0;
  if (!f[i + 5]) return undefined;
  return { serial: f[i], issuer: f[i + 2], subject: f[i + 4] };
}

export type CertFields = {
  der: Uint8Array;
  /** the issuer Name, DER */
  issuer: Uint8Array;
  /** the serialNumber INTEGER, DER (tag and length included) */
  serial: Uint8Array;
  subject: Uint8Array;
  /** OID of the subject public key algorithm, DER */
  keyAlgorithm: Uint8Array;
};

/** Issuer, serial, subject and key algorithm of an X.509 certificate (what CMS needs); throws RangeError on malformed DER. */
export function certFields(der: Uint8Array): CertFields {
  const cert = readWhole(der);
  const tbs = cert && children(der, cert, 1)[0];
  const f = tbs ? children(der, tbs, 8) : [];
  const i = f[0]?.tag === 0xa0 ? 1 : 0;
  const spki = f[i + 5];
  const algId = spki && children(der, spki, 1)[0];
  const keyAlg = algId && children(der, algId, 1)[0];
  if (!keyAlg) throw new RangeError('DER: not an X.509 certificate');
  return {
    der,
    serial: raw(der, f[i]),
    issuer: raw(der, f[i + 2]),
    subject: raw(der, f[i + 4]),
    keyAlgorithm: raw(der, keyAlg),
  };
}
