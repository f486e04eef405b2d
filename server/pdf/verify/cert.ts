/**
 * X.509 certificates as the verifier needs them: the fields read straight from the DER (names,
 * serial, validity, public key, key identifier), the public key and the native X509Certificate made
 * on first use. Parsing is a structural DER walk; signature checks are done by node:crypto.
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import {
  allChildren,
  bitsOf,
  content,
  eqBytes,
  oidOf,
  raw,
  readTlv,
  readWhole,
  stringOf,
  T,
  type Tlv,
  timeOf,
} from '../../lib/der.ts';

/** One attribute of a distinguished name, in order of appearance (multi-valued RDNs flattened). */
type NameAttr = { oid: string; text: string | undefined; value: Uint8Array };
export type Name = { der: Uint8Array; attrs: NameAttr[] };

/** An algorithm identifier: its OID and the DER of its parameters, if any. */
export type AlgId = { oid: string; params?: Uint8Array };

/** A certificate with its DER bytes (needed for hashes and for node:crypto) and its parsed fields. */
export type Cert = {
  der: Uint8Array;
  tbs: Uint8Array;
  /** content octets of the serialNumber INTEGER */
  serial: Uint8Array;
  issuer: Name;
  subject: Name;
  notBefore: Date;
  notAfter: Date;
  /** DER of SubjectPublicKeyInfo */
  spki: Uint8Array;
  /** the subjectPublicKey BIT STRING content (what key identifiers hash) */
  publicKeyBits: Uint8Array;
  /** content of the subjectKeyIdentifier extension when it is a well-formed OCTET STRING */
  ski?: Uint8Array;
  /** the subjectKeyIdentifier extension exists (even if malformed) */
  hasSkiExt: boolean;
  /** the issuer's signature: its algorithm, which the TBS must repeat, and the value */
  signatureAlgorithm: AlgId;
  /** signatureAlgorithm and the TBS's signature field are the same encoding */
  algorithmsAgree: boolean;
  /** the signature BIT STRING content without its unused-bits octet; undefined if bits are unused */
  signatureValue?: Uint8Array;
};

const SKI_OID = '2.5.29.14';

/** Reads an AlgorithmIdentifier SEQUENCE { OID, ANY OPTIONAL }. */
export function algIdOf(b: Uint8Array, t: Tlv | undefined): AlgId | undefined {
  if (!t || t.tag !== T.SEQUENCE) return undefined;
  const c = allChildren(b, t);
  if (!c || c.length < 1 || c.length > 2) return undefined;
  const oid = oidOf(b, c[0]);
  if (!oid) return undefined;
  return c[1] ? { oid, params: raw(b, c[1]) } : { oid };
}

/** Reads a Name (SEQUENCE OF RDN). */
export function nameOf(b: Uint8Array, t: Tlv | undefined): Name | undefined {
  if (!t || t.tag !== T.SEQUENCE) return undefined;
  const rdns = allChildren(b, t);
  if (!rdns) return undefined;
  const attrs: NameAttr[] = [];
  for (const rdn of rdns) {
    if (rdn.tag !== T.SET) return undefined;
    const atvs = allChildren(b, rdn);
    if (!atvs) return undefined;
    for (const atv of atvs) {
      if (atv.tag !== T.SEQUENCE) return undefined;
      const kv = allChildren(b, atv);
      if (kv?.length !== 2) return undefined;
      const oid = oidOf(b, kv[0]);
      if (!oid) return undefined;
      attrs.push({ oid, text: stringOf(b, kv[1]), value: raw(b, kv[1]) });
    }
  }
  return { der: raw(b, t), attrs };
}

/** The first attribute of `name` with this OID whose value is a string. */
export function nameAttr(name: Name, oid: string): string | undefined {
  for (const a of name.attrs) if (a.oid === oid && a.text !== undefined) return a.text;
  return undefined;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function stringPrep(s: string): string {
  return s.trim().replace(/ {2,}/g, ' ').toLowerCase();
}

function sameText(x: string, y: string): boolean {
  if (x === y) return true;
  // distinct printable-ASCII strings never collate equal: skip the collator, slow to start
  if (PRINTABLE_ASCII.test(x) && PRINTABLE_ASCII.test(y)) return false;
  return x.localeCompare(y) === 0;
}

/**
 * Name matching as RFC 5280 path building does it in practice: identical encodings match; otherwise
 * attribute by attribute, strings compared case-insensitively with spaces folded, other values by bytes.
 */
export function namesEqual(a: Name, b: Name): boolean {
  if (eqBytes(a.der, b.der)) return true;
  if (a.attrs.length !== b.attrs.length) return false;
  for (let i = 0; i < a.attrs.length; i++) {
    const x = a.attrs[i];
    const y = b.attrs[i];
    if (x.oid !== y.oid) return false;
    if ((x.text === undefined) !== (y.text === undefined)) return false;
    if (x.text !== undefined && y.text !== undefined) {
      if (!sameText(stringPrep(x.text), stringPrep(y.text))) return false;
    } else if (!eqBytes(x.value, y.value)) return false;
  }
  return true;
}

function parseCert(der: Uint8Array): Cert | undefined {
  // trailing bytes after the certificate are ignored, as DER decoders commonly do
  const cert = readTlv(der, 0);
  if (!cert || cert.tag !== T.SEQUENCE) return undefined;
  const top = allChildren(der, cert);
  if (top?.length !== 3) return undefined;
  const [tbsT, sigAlgT, sigValT] = top;
  const signatureAlgorithm = algIdOf(der, sigAlgT);
  if (tbsT.tag !== T.SEQUENCE || !signatureAlgorithm || sigValT.tag !== T.BIT_STRING) return undefined;
  const f = allChildren(der, tbsT);
  if (!f) return undefined;
  let i = 0;
  if (f[0]?.tag === 0xa0) {
    const v = allChildren(der, f[0]);
    if (v?.length !== 1 || v[0].tag !== T.INTEGER) return undefined;
    i = 1;
  }
  const serialT = f[i];
  if (!serialT || serialT.tag !== T.INTEGER || !algIdOf(der, f[i + 1])) return undefined;
  const issuer = nameOf(der, f[i + 2]);
  const validity = f[i + 3];
  const subject = nameOf(der, f[i + 4]);
  const spkiT = f[i + 5];
  if (!issuer || !subject || validity?.tag !== T.SEQUENCE || spkiT?.tag !== T.SEQUENCE) return undefined;
  const times = allChildren(der, validity);
  if (times?.length !== 2) return undefined;
  const notBefore = timeOf(der, times[0]);
  const notAfter = timeOf(der, times[1]);
  const spkiParts = allChildren(der, spkiT);
  if (!notBefore || !notAfter || !spkiParts || spkiParts.length !== 2) return undefined;
  const publicKeyBits = bitsOf(der, spkiParts[1]);
  if (!algIdOf(der, spkiParts[0]) || !publicKeyBits) return undefined;
  let ski: Uint8Array | undefined;
  let hasSkiExt = false;
  for (const opt of f.slice(i + 6)) {
    if (opt.tag === 0x81 || opt.tag === 0x82 || opt.tag === 0xa1 || opt.tag === 0xa2) continue;
    if (opt.tag !== 0xa3) return undefined;
    const wrap = allChildren(der, opt);
    if (wrap?.length !== 1 || wrap[0].tag !== T.SEQUENCE) return undefined;
    for (const ext of allChildren(der, wrap[0]) ?? []) {
      const e = ext.tag === T.SEQUENCE ? allChildren(der, ext) : undefined;
      if (!e || e.length < 2 || e.length > 3) return undefined;
      const value = e[e.length - 1];
      if (value.tag !== T.OCTET_STRING || (e.length === 3 && e[1].tag !== T.BOOLEAN)) return undefined;
      const oid = oidOf(der, e[0]);
      if (!oid) return undefined;
      if (oid === SKI_OID && !hasSkiExt) {
        hasSkiExt = true;
        const inner = content(der, value);
        const o = readWhole(inner);
        if (o && o.tag === T.OCTET_STRING) ski = content(inner, o);
      }
    }
  }
  return {
    der,
    tbs: raw(der, tbsT),
    serial: content(der, serialT),
    issuer,
    subject,
    notBefore,
    notAfter,
    spki: raw(der, spkiT),
    publicKeyBits,
    ski,
    hasSkiExt,
    signatureAlgorithm,
    algorithmsAgree: eqBytes(raw(der, sigAlgT), raw(der, f[i + 1])),
    signatureValue: der[sigValT.headerEnd] === 0 ? bitsOf(der, sigValT) : undefined,
  };
}

let interned: Map<string, Cert | undefined> | null = null;

/**
 * Runs `fn` with certificates shared by their bytes: a file's signatures, time-stamps and DSS carry the
 * same CA certificates many times, and each is then parsed, keyed and signature-checked once.
 */
export function withCertCache<R>(fn: () => R): R {
  const outer = interned;
  interned = outer ?? new Map();
  try {
    return fn();
  } finally {
    interned = outer;
  }
}

/** Parses a DER certificate; undefined when it is not one. */
export function certFromDer(der: Uint8Array): Cert | undefined {
  const key = interned ? Buffer.from(der.buffer, der.byteOffset, der.byteLength).toString('latin1') : '';
  if (interned?.has(key)) return interned.get(key);
  let c: Cert | undefined;
  try {
    c = parseCert(der);
  } catch {
    c = undefined;
  }
  interned?.set(key, c);
  return c;
}

/** The serial number as upper-case hex of its INTEGER content octets. */
export function serialHex(cert: Cert): string {
  return Buffer.from(cert.serial).toString('hex').toUpperCase();
}

/** The same certificate (same object or same encoding). */
export function sameCert(a: Cert, b: Cert): boolean {
  return a === b || eqBytes(a.der, b.der);
}

/** Matches a SignerIdentifier's subjectKeyIdentifier: the extension if present, else SHA-1 of the key. */
export function hasKeyId(c: Cert, keyId: Uint8Array): boolean {
  if (c.hasSkiExt && c.ski) return eqBytes(c.ski, keyId);
  return eqBytes(createHash('sha1').update(c.publicKeyBits).digest(), keyId);
}

const keyCache = new WeakMap<Cert, KeyObject | null>();
/** The certificate's public key for node:crypto (made once per certificate), or undefined. */
export function publicKeyOf(cert: Cert): KeyObject | undefined {
  let k = keyCache.get(cert);
  if (k === undefined) {
    try {
      k = createPublicKey({ key: Buffer.from(cert.spki), format: 'der', type: 'spki' });
    } catch {
      k = null;
    }
    keyCache.set(cert, k);
  }
  return k ?? undefined;
}

/** SHA-1 of the issuer's public key bits (OCSP CertID.issuerKeyHash). */
export function keyHashSha1(c: Cert): Buffer {
  return createHash('sha1').update(c.publicKeyBits).digest();
}

/** Reads a certificate element inside a larger structure (no copy). */
export function certAt(b: Uint8Array, t: Tlv): Cert | undefined {
  if (t.tag !== T.SEQUENCE) return undefined;
  return certFromDer(raw(b, t));
}
