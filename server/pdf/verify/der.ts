/**
 * A minimal DER reader for hot paths where building full pkijs objects is too slow (large CRLs).
 * Every read is bounds-checked; a malformed encoding yields undefined.
 */
export type Tlv = { tag: number; start: number; headerEnd: number; end: number };

export function readTlv(b: Uint8Array, p: number, limit = b.length): Tlv | undefined {
  if (p + 2 > limit) return undefined;
  const tag = b[p];
  let len = b[p + 1];
  let q = p + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || q + n > limit) return undefined;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + b[q++];
  }
  if (q + len > limit) return undefined;
  return { tag, start: p, headerEnd: q, end: q + len };
}

/** The children of a constructed TLV. */
export function children(b: Uint8Array, t: Tlv, max = 1_000_000): Tlv[] {
  const out: Tlv[] = [];
  let p = t.headerEnd;
  while (p < t.end && out.length < max) {
    const c = readTlv(b, p, t.end);
    if (!c) return out;
    out.push(c);
    p = c.end;
  }
  return out;
}

export function bytesEq(b: Uint8Array, x: Tlv, c: Uint8Array, y: Tlv): boolean {
  const lx = x.end - x.start;
  if (lx !== y.end - y.start) return false;
  for (let i = 0; i < lx; i++) if (b[x.start + i] !== c[y.start + i]) return false;
  return true;
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
