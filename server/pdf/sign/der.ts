/**
 * Just enough DER to build a CMS signature by hand: the encoder writes exactly the bytes we mean (no
 * library re-encoding signed attributes), the reader takes the few fields of a certificate CMS needs.
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

/** Lexicographic order of encodings, as DER wants for SET OF. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** SET OF with its members in DER order; `tag` 0xa0/0xa1 for the IMPLICIT [0]/[1] forms of CMS. */
export function setOf(members: Uint8Array[], tag = 0x31): Uint8Array {
  return tlv(tag, ...[...members].sort(compareBytes));
}

export function smallInt(n: number): Uint8Array {
  if (n < 0 || n > 127) throw new RangeError('smallInt takes 0..127');
  return new Uint8Array([0x02, 0x01, n]);
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

export function readTlv(b: Uint8Array, start: number): Tlv {
  if (start + 2 > b.length) throw new RangeError('DER: truncated');
  const tag = b[start];
  let p = start + 1;
  let length = b[p++];
  if (length & 0x80) {
    const n = length & 0x7f;
    if (n === 0 || n > 4) throw new RangeError('DER: unsupported length');
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

/** Issuer, serial, subject and key algorithm of an X.509 certificate; throws RangeError on malformed DER. */
export function certFields(der: Uint8Array): CertFields {
  const cert = readTlv(der, 0);
  const tbs = children(der, cert)[0];
  const f = children(der, tbs);
  const i = f[0].tag === 0xa0 ? 1 : 0;
  const spki = f[i + 5];
  const keyAlgId = children(der, children(der, spki)[0])[0];
  return {
    der,
    serial: raw(der, f[i]),
    issuer: raw(der, f[i + 2]),
    subject: raw(der, f[i + 4]),
    keyAlgorithm: raw(der, keyAlgId),
  };
}
