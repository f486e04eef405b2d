/**
 * CMS (PKCS #7) signature checks for PDF signatures and RFC 3161 time-stamp tokens.
 *
 * Parsing is a structural walk over the DER bytes in place (lib/der.ts, cert.ts); every cryptographic
 * operation uses node:crypto. The functions here never throw on hostile input: problems come back as
 * `formatError` or as false/null results.
 */
import {
  createHash,
  type KeyObject,
  constants as cryptoConstants,
  verify as cryptoVerify,
  publicDecrypt,
} from 'node:crypto';
import {
  type AlgId,
  algIdOf,
  type Cert,
  certAt,
  hasKeyId,
  type Name,
  nameAttr,
  nameOf,
  namesEqual,
  publicKeyOf,
  serialHex,
} from './cert.ts';
import {
  allChildren,
  berProblem,
  certIssuerSerial,
  content,
  ctx,
  eqBytes,
  octetsOf,
  oidOf,
  raw,
  readTlv,
  readWhole,
  scanBer,
  smallIntOf,
  T,
  type Tlv,
  timeOf,
} from '../../lib/der.ts';

export { nameAttr, serialHex };

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStamp: '1.2.840.113549.1.9.16.2.14',
  adbeRevocation: '1.2.840.113583.1.1.8',
  commonName: '2.5.4.3',
  organisation: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
} as const;

const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.8': 'sha3-256',
  '2.16.840.1.101.3.4.2.9': 'sha3-384',
  '2.16.840.1.101.3.4.2.10': 'sha3-512',
  '1.2.840.113549.2.5': 'md5',
  // seen in the wild: a signature algorithm given as digest algorithm
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
};

/** Signature algorithm OIDs → [family, hash or null when the digest algorithm decides]. */
export const SIG_ALGS: Record<string, [string, string | null]> = {
  '1.2.840.113549.1.1.1': ['rsa', null],
  '1.2.840.113549.1.1.4': ['rsa', 'md5'],
  '1.2.840.113549.1.1.5': ['rsa', 'sha1'],
  '1.2.840.113549.1.1.11': ['rsa', 'sha256'],
  '1.2.840.113549.1.1.12': ['rsa', 'sha384'],
  '1.2.840.113549.1.1.13': ['rsa', 'sha512'],
  '1.2.840.113549.1.1.14': ['rsa', 'sha224'],
  '1.2.840.113549.1.1.10': ['pss', null],
  '1.2.840.10045.2.1': ['ecdsa', null],
  '1.2.840.10045.4.1': ['ecdsa', 'sha1'],
  '1.2.840.10045.4.3.1': ['ecdsa', 'sha224'],
  '1.2.840.10045.4.3.2': ['ecdsa', 'sha256'],
  '1.2.840.10045.4.3.3': ['ecdsa', 'sha384'],
  '1.2.840.10045.4.3.4': ['ecdsa', 'sha512'],
  '1.3.101.112': ['eddsa', null],
  '1.3.101.113': ['eddsa', null],
  '1.2.840.10040.4.1': ['dsa', null],
  '1.2.840.10040.4.3': ['dsa', 'sha1'],
  '2.16.840.1.101.3.4.3.2': ['dsa', 'sha256'],
};

/** node:crypto hash name for a digest algorithm OID, or undefined when not supported. */
export function digestName(oid: string): string | undefined {
  return DIGESTS[oid];
}

/** Digest of the concatenated chunks (the two ByteRange parts) without joining them. */
export function hashChunks(alg: string, chunks: Uint8Array[]): Buffer {
  const h = createHash(alg);
  for (const c of chunks) h.update(c);
  return h.digest();
}

type SignatureCheck = {
  /** the digest in the CMS equals the digest of the signed data */
  intact: boolean | null;
  /** the signature value verifies with the signer's public key */
  cryptoValid: boolean | null;
  problems: string[];
};

/** RSASSA-PSS-params: hash [0] and saltLength [2]; absent parameters mean SHA-1 and 20. */
function pssParams(params: Uint8Array | undefined): { hash: string; saltLength: number } | undefined {
  if (!params) return { hash: 'sha1', saltLength: 20 };
  const seq = readWhole(params);
  if (!seq || seq.tag !== T.SEQUENCE) return undefined;
  const parts = allChildren(params, seq);
  if (!parts) return undefined;
  let hash = 'sha1';
  let saltLength = 20;
  for (const p of parts) {
    const inner = allChildren(params, p);
    if (inner?.length !== 1) return undefined;
    if (p.tag === ctx(0)) {
      const alg = algIdOf(params, inner[0]);
      if (!alg) return undefined;
      hash = digestName(alg.oid) ?? 'sha1';
    } else if (p.tag === ctx(2)) {
      const n = smallIntOf(params, inner[0]);
      if (n === undefined) return undefined;
      saltLength = n;
    } else if (p.tag !== ctx(1) && p.tag !== ctx(3)) return undefined;
  }
  return { hash, saltLength };
}

/** The node:crypto key types each signature family is checked with. */
const KEY_TYPES: Record<string, readonly string[]> = {
  rsa: ['rsa'],
  pss: ['rsa', 'rsa-pss'],
  ecdsa: ['ec'],
  dsa: ['dsa'],
  eddsa: ['ed25519', 'ed448'],
};

/**
 * Verifies a signature value over data with the given algorithm. Returns null when the algorithm or key
 * cannot be handled here (reported as "unknown", never as valid).
 */
export function verifySignatureValue(
  sigAlg: AlgId,
  digestAlg: string,
  data: Uint8Array,
  signature: Uint8Array,
  key: KeyObject,
): boolean | null {
  const entry = SIG_ALGS[sigAlg.oid];
  if (!entry) return null;
  const [family, fixedHash] = entry;
  const hash = fixedHash ?? digestAlg;
  // The algorithm must fit the key: node:crypto would check an ECDSA signature labelled
  // sha256WithRSAEncryption with an EC key (and accept it), where OpenSSL and NSS refuse the mismatch.
  if (!KEY_TYPES[family]?.includes(key.asymmetricKeyType ?? '')) return false;
  try {
    if (family === 'rsa') {
      return cryptoVerify(hash, data, { key, padding: cryptoConstants.RSA_PKCS1_PADDING }, signature);
    }
    if (family === 'pss') {
      const p = pssParams(sigAlg.params);
      if (!p) return false;
      return cryptoVerify(
        p.hash,
        data,
        { key, padding: cryptoConstants.RSA_PKCS1_PSS_PADDING, saltLength: p.saltLength },
        signature,
      );
    }
    if (family === 'ecdsa' || family === 'dsa') return cryptoVerify(hash, data, key, signature);
    if (family === 'eddsa') return cryptoVerify(null, data, key, signature);
  } catch {
    return false;
  }
  return null;
}

/** One CMS attribute: its type and its values, as elements of `b`. */
export type Attr = { b: Uint8Array; oid: string; values: Tlv[] };

export type ParsedCms = {
  certs: Cert[];
  signerCert?: Cert;
  digestAlg?: string;
  signatureAlgorithm: AlgId;
  /** the SignerInfo signature value */
  signature: Uint8Array;
  eContentType: string;
  eContent?: Uint8Array;
  /** DER of the signed attributes with the SET OF tag, as signed; undefined when absent */
  signedAttrsDer?: Uint8Array;
  signedAttr: (oid: string) => Attr[];
  unsignedAttr: (oid: string) => Attr[];
  /**
   * Malformed parts outside what the signature rests on (an unsigned attribute, a certificate that is
   * not the signer's, a CRL): left out, one sentence each. The signer's certificate, the signed
   * attributes, the signature value and the rest of the container must be sound, or parseCms throws.
   */
  warnings: string[];
};

/**
 * How a SignedData is read: `careful` when the container as a whole did not scan clean (scanBer), so
 * each part is scanned on its own to tell a broken signature from a broken part outside it.
 */
type Reading = { careful: boolean; warnings: string[]; outside: number };

/** In careful reading, a part the signature rests on must scan clean. */
function core(b: Uint8Array, t: Tlv | undefined, r: Reading): void {
  if (!r.careful || !t) return;
  const why = berProblem(b, t);
  if (why) throw new Error(`CMS ${why}`);
}

const UNSIGNED_NAMES: Record<string, string> = {
  '1.2.840.113549.1.9.16.2.14': 'the signature time-stamp token',
  '1.2.840.113549.1.9.6': 'the counter-signature',
};

function attributes(b: Uint8Array, t: Tlv): Attr[] | undefined {
  const list = allChildren(b, t);
  if (!list) return undefined;
  const out: Attr[] = [];
  for (const a of list) {
    if (a.tag !== T.SEQUENCE) return undefined;
    const kv = allChildren(b, a);
    if (kv?.length !== 2 || kv[1].tag !== T.SET) return undefined;
    const oid = oidOf(b, kv[0]);
    const values = allChildren(b, kv[1]);
    if (!oid || !values) return undefined;
    out.push({ b, oid, values });
  }
  return out;
}

const isOctetString = (t: Tlv | undefined) => t?.tag === T.OCTET_STRING || t?.tag === (T.OCTET_STRING | 0x20);

/** Decodes the SignedData of a ContentInfo. Throws an Error with a message on any structural problem. */
function parseSignedData(b: Uint8Array, sdT: Tlv | undefined, r: Reading): ParsedCms {
  const bad = () => new Error('CMS SignedData is malformed');
  if (!sdT || sdT.tag !== T.SEQUENCE) throw bad();
  const f = allChildren(b, sdT);
  if (!f || f.length < 4) throw bad();
  const [versionT, digestAlgsT, eciT] = f;
  if (versionT.tag !== T.INTEGER || digestAlgsT.tag !== T.SET || eciT.tag !== T.SEQUENCE) throw bad();
  for (const t of [versionT, digestAlgsT, eciT]) core(b, t, r);
  for (const d of allChildren(b, digestAlgsT) ?? []) if (!algIdOf(b, d)) throw bad();
  let i = 3;
  let certsT: Tlv | undefined;
  if (f[i]?.tag === ctx(0)) certsT = f[i++];
  if (f[i]?.tag === ctx(1)) {
    // revocation info choices: CertificateList { tbs, algorithm, signature } or other [1]; nothing here
    // is used (revocation data is read from /DSS and adbe-revocationInfoArchival), so a bad one is a warning
    const list = allChildren(b, f[i]);
    if (!list) r.warnings.push('the CRL set of the CMS cannot be read: ignored');
    list?.forEach((c, k) => {
      const parts = c.tag === T.SEQUENCE ? allChildren(b, c) : undefined;
      const why =
        c.tag !== ctx(1) && !(parts?.length === 3 && algIdOf(b, parts[1]) && parts[2].tag === T.BIT_STRING)
          ? 'is not a CRL'
          : r.careful
            ? berProblem(b, c)
            : undefined;
      if (why) r.warnings.push(`CRL ${k + 1} of the CMS ${why}: ignored`);
    });
    i++;
  }
  const signerInfosT = f[i];
  if (!signerInfosT || signerInfosT.tag !== T.SET || i !== f.length - 1) throw bad();
  // encapsulated content
  const eci = allChildren(b, eciT);
  if (!eci || eci.length < 1 || eci.length > 2) throw bad();
  const eContentType = oidOf(b, eci[0]);
  if (!eContentType) throw bad();
  let eContent: Uint8Array | undefined;
  if (eci[1]) {
    if (eci[1].tag !== ctx(0)) throw bad();
    const inner = allChildren(b, eci[1]);
    if (inner?.length !== 1 || !isOctetString(inner[0])) throw bad();
    eContent = octetsOf(b, inner[0]);
    if (!eContent) throw bad();
  }
  // certificates: keep sound X.509 ones; other certificate choices ([0]..[3]) are skipped
  const certs: Cert[] = [];
  const unsound: { t: Tlv; n: number; cert?: Cert; why: string }[] = [];
  if (certsT) {
    const list = allChildren(b, certsT);
    if (!list) throw bad();
    list.forEach((c, k) => {
      if (c.tag !== T.SEQUENCE) {
        if ((c.tag & 0xc0) !== 0x80) unsound.push({ t: c, n: k + 1, why: 'is not a certificate' });
        return;
      }
      const cert = certAt(b, c);
      const why = cert ? (r.careful ? berProblem(b, c) : undefined) : 'is not a readable X.509 certificate';
      if (cert && !why) certs.push(cert);
      else unsound.push({ t: c, n: k + 1, cert, why: why ?? '' });
    });
  }
  // signer infos
  const sis = allChildren(b, signerInfosT);
  if (!sis) throw bad();
  const parsedSis = sis.map((si) => signerInfo(b, si, r));
  if (parsedSis.some((x) => !x)) throw bad();
  if (sis.length !== 1) throw new Error(`CMS has ${sis.length} signer infos (expected 1)`);
  const si = parsedSis[0]!;
  const isSigner = (c: Cert) =>
    si.sidIssuer
      ? eqBytes(c.serial, si.sidIssuer.serial) && namesEqual(c.issuer, si.sidIssuer.name)
      : !!si.sidKeyId && hasKeyId(c, si.sidKeyId);
  const signerCert = certs.find(isSigner);
  for (const u of unsound) {
    // the signer's own certificate must be sound: the signature rests on it
    if (!signerCert && (u.cert ? isSigner(u.cert) : namesSigner(raw(b, u.t), si)))
      throw new Error(`the signer's certificate in the CMS ${u.why}`);
    r.warnings.push(`certificate ${u.n} of the CMS (not the signer's) ${u.why}: left out`);
  }
  const pick = (list: Attr[] | undefined, oid: string) => (list ?? []).filter((a) => a.oid === oid);
  return {
    certs,
    signerCert,
    digestAlg: digestName(si.digestAlg.oid),
    signatureAlgorithm: si.sigAlg,
    signature: si.signature,
    eContentType,
    eContent,
    signedAttrsDer: si.signedAttrsDer,
    signedAttr: (oid) => pick(si.signedAttrs, oid),
    unsignedAttr: (oid) => pick(si.unsignedAttrs, oid),
    warnings: r.warnings,
  };
}

/** An unreadable certificate's issuer and serial, read leniently, name the signer of `si`. */
function namesSigner(der: Uint8Array, si: SignerInfoParts): boolean {
  if (!si.sidIssuer) return false;
  const f = certIssuerSerial(der);
  if (!f || f.serial.tag !== T.INTEGER) return false;
  const issuer = nameOf(der, f.issuer);
  return (
    !!issuer && eqBytes(content(der, f.serial), si.sidIssuer.serial) && namesEqual(issuer, si.sidIssuer.name)
  );
}

type SignerInfoParts = {
  sidIssuer?: { name: Name; serial: Uint8Array };
  sidKeyId?: Uint8Array;
  digestAlg: AlgId;
  sigAlg: AlgId;
  signature: Uint8Array;
  signedAttrs?: Attr[];
  signedAttrsDer?: Uint8Array;
  unsignedAttrs?: Attr[];
};

function signerInfo(b: Uint8Array, t: Tlv, r: Reading): SignerInfoParts | undefined {
  if (t.tag !== T.SEQUENCE) return undefined;
  const f = allChildren(b, t);
  if (!f || f.length < 5 || f[0].tag !== T.INTEGER) return undefined;
  // everything but the unsigned attributes is signed or names the signer
  for (const x of f) if (!(x === f[f.length - 1] && x.tag === ctx(1))) core(b, x, r);
  const out: Partial<SignerInfoParts> = {};
  const sid = f[1];
  if (sid.tag === T.SEQUENCE) {
    const ias = allChildren(b, sid);
    if (ias?.length !== 2 || ias[1].tag !== T.INTEGER) return undefined;
    const holder = nameOf(b, ias[0]);
    if (!holder) return undefined;
    out.sidIssuer = { name: holder, serial: content(b, ias[1]) };
  } else if (sid.tag === ctx(0, false)) out.sidKeyId = content(b, sid);
  else return undefined;
  const digestAlg = algIdOf(b, f[2]);
  if (!digestAlg) return undefined;
  out.digestAlg = digestAlg;
  let i = 3;
  if (f[i].tag === ctx(0)) {
    const attrs = attributes(b, f[i]);
    if (!attrs || attrs.length === 0) return undefined;
    out.signedAttrs = attrs;
    const der = new Uint8Array(raw(b, f[i]));
    der[0] = T.SET;
    out.signedAttrsDer = der;
    i++;
  }
  const sigAlg = algIdOf(b, f[i]);
  const sig = isOctetString(f[i + 1]) ? octetsOf(b, f[i + 1]) : undefined;
  if (!sigAlg || !sig) return undefined;
  out.sigAlg = sigAlg;
  out.signature = sig;
  i += 2;
  if (f[i]?.tag === ctx(1)) {
    // outside the signature: a malformed attribute is a warning; its reader (the time-stamp check) decides
    const attrs = attributes(b, f[i]);
    if (!attrs) r.warnings.push('the unsigned attributes of the signature cannot be read: ignored');
    else out.unsignedAttrs = attrs;
    if (attrs && r.careful)
      for (const a of allChildren(b, f[i]) ?? []) {
        const why = berProblem(b, a);
        const oid = oidOf(b, allChildren(b, a)?.[0]) ?? '';
        if (why) r.outside++;
        if (why && oid !== OID.signatureTimeStamp)
          r.warnings.push(`the unsigned attribute ${UNSIGNED_NAMES[oid] ?? oid} ${why}`);
      }
    i++;
  }
  if (i !== f.length) return undefined;
  return out as SignerInfoParts;
}

/** Decodes a CMS ContentInfo holding SignedData. Throws an Error with a message on any structural problem. */
export function parseCms(der: Uint8Array): ParsedCms {
  const top = readTlv(der, 0);
  if (!top) throw new Error('CMS is not decodable BER');
  const scan = scanBer(der, 0, top.end);
  if (scan.wellFormed && !scan.malformedInteger)
    return parseContentInfo(der, top, { careful: false, warnings: [], outside: 0 });
  // Something is malformed: which part decides. The signed parts and the signer's certificate fail the
  // signature; an unsigned attribute, another certificate or a CRL is a warning (pdfsig and OpenSSL
  // accept such signatures: they are outside what the signer signed).
  const whole = scan.wellFormed ? 'CMS contains a malformed INTEGER' : 'CMS is not decodable BER';
  const r: Reading = { careful: true, warnings: [], outside: 0 };
  let cms: ParsedCms;
  try {
    cms = parseContentInfo(der, top, r);
  } catch (e) {
    // a container that does not read as SignedData at all: the encoding is the first thing wrong
    if ((e as Error).message.endsWith('is malformed')) throw new Error(whole);
    throw e;
  }
  // nothing outside the signature explains what the scan found: the container itself is broken
  if (cms.warnings.length === 0 && r.outside === 0) throw new Error(whole);
  return cms;
}

function parseContentInfo(der: Uint8Array, top: Tlv, r: Reading): ParsedCms {
  const ci = top.tag === T.SEQUENCE ? allChildren(der, top) : undefined;
  if (!ci || ci.length < 1 || ci.length > 2 || (ci[1] && ci[1].tag !== ctx(0)))
    throw new Error('CMS ContentInfo is malformed');
  core(der, ci[0], r);
  const contentType = oidOf(der, ci[0]);
  if (!contentType) throw new Error('CMS ContentInfo is malformed');
  if (contentType !== OID.signedData) throw new Error('CMS content is not SignedData');
  const inner = ci[1] ? allChildren(der, ci[1]) : undefined;
  if (inner?.length !== 1) throw new Error('CMS SignedData is malformed');
  return parseSignedData(der, inner[0], r);
}

/** Checks that a signing-certificate(-v2) attribute, if present, names the signer certificate. */
function signingCertificateBinds(cms: ParsedCms, cert: Cert): boolean | null {
  const v2 = cms.signedAttr(OID.signingCertificateV2)[0];
  const v1 = cms.signedAttr(OID.signingCertificate)[0];
  const attr = v2 ?? v1;
  if (!attr) return null;
  const b = attr.b;
  const seq = attr.values[0];
  const certsSeq = seq?.tag === T.SEQUENCE ? allChildren(b, seq)?.[0] : undefined;
  const first = certsSeq?.tag === T.SEQUENCE ? allChildren(b, certsSeq)?.[0] : undefined;
  const parts = first?.tag === T.SEQUENCE ? allChildren(b, first) : undefined;
  if (!parts || parts.length === 0) return false;
  let alg = 'sha1';
  let hashPart = parts[0];
  if (v2) {
    alg = 'sha256';
    if (parts[0].tag === T.SEQUENCE) {
      const ai = algIdOf(b, parts[0]);
      if (!ai) return false;
      alg = digestName(ai.oid) ?? 'unknown';
      hashPart = parts[1];
    }
  }
  if (!isOctetString(hashPart) || alg === 'unknown') return false;
  return eqBytes(createHash(alg).update(cert.der).digest(), octetsOf(b, hashPart));
}

type SignerCheck = SignatureCheck & {
  /** the signing-certificate attribute binds the certificate (null: no such attribute) */
  certBound: boolean | null;
  signingTime?: Date;
};

/**
 * Verifies the single SignerInfo of `cms` over the content whose digest is `contentDigest`
 * (detached data or eContent). `content` is needed only when there are no signed attributes.
 */
export function checkSigner(
  cms: ParsedCms,
  contentDigest: Uint8Array,
  contentChunks: () => Uint8Array[],
): SignerCheck {
  const problems: string[] = [];
  const cert = cms.signerCert;
  const key = cert ? publicKeyOf(cert) : undefined;
  const sig = cms.signature;
  const digestAlg = cms.digestAlg;
  if (!digestAlg)
    return { intact: null, cryptoValid: null, certBound: null, problems: ['unsupported digest algorithm'] };
  if (cms.signedAttrsDer) {
    const md = cms.signedAttr(OID.messageDigest);
    const ct = cms.signedAttr(OID.contentType);
    if (md.length !== 1) problems.push('signed attributes must hold exactly one message-digest');
    if (ct.length !== 1) problems.push('signed attributes must hold exactly one content-type');
    else if (oidOf(ct[0].b, ct[0].values[0]) !== cms.eContentType)
      problems.push('content-type attribute differs from the encapsulated content type');
    const mdv = md[0]?.values[0];
    const intact =
      md.length === 1 && mdv?.tag === T.OCTET_STRING ? eqBytes(content(md[0].b, mdv), contentDigest) : false;
    let cryptoValid: boolean | null = null;
    if (key)
      cryptoValid = verifySignatureValue(cms.signatureAlgorithm, digestAlg, cms.signedAttrsDer, sig, key);
    const st = cms.signedAttr(OID.signingTime)[0];
    const signingTime = st ? timeOf(st.b, st.values[0]) : undefined;
    return {
      intact,
      cryptoValid,
      certBound: cert ? signingCertificateBinds(cms, cert) : null,
      signingTime,
      problems,
    };
  }
  // No signed attributes: the signature is computed over the content itself.
  if (!key) return { intact: null, cryptoValid: null, certBound: null, problems };
  const entry = SIG_ALGS[cms.signatureAlgorithm.oid];
  if (entry && entry[0] === 'rsa') {
    // Recover the DigestInfo so a content change (hash) and a bad signature (crypto) are told apart.
    try {
      const di = publicDecrypt({ key, padding: cryptoConstants.RSA_PKCS1_PADDING }, sig);
      const seq = readTlv(di, 0);
      const parts = seq?.tag === T.SEQUENCE ? allChildren(di, seq) : undefined;
      const dg = parts?.[1];
      if (!dg || dg.tag & 0x20) throw new Error('no digest');
      const intact = eqBytes(content(di, dg), contentDigest);
      return { intact, cryptoValid: true, certBound: null, problems };
    } catch {
      return { intact: null, cryptoValid: false, certBound: null, problems };
    }
  }
  const data = Buffer.concat(contentChunks());
  const ok = verifySignatureValue(cms.signatureAlgorithm, digestAlg, data, sig, key);
  return { intact: ok, cryptoValid: ok, certBound: null, problems };
}

/** The token's TSTInfo is not what the TSA signed: like a changed document, a hash failure. */
export const TST_ALTERED = 'the TSTInfo does not match the digest the TSA signed';

export type TimestampCheck = {
  ok: boolean;
  /** the token itself cannot be read (its container, its TSA certificate or its TSTInfo): no time-stamp */
  unreadable?: boolean;
  /** malformed parts of the token outside what the TSA signed (see ParsedCms.warnings) */
  warnings: string[];
  genTime?: Date;
  tsaName?: string;
  tsaCert?: Cert;
  certs: Cert[];
  imprintMatches: boolean;
  problems: string[];
};

/** TSTInfo: messageImprint and genTime; undefined when it is not a TSTInfo. */
function tstInfo(b: Uint8Array): { alg: AlgId; hashed: Uint8Array; genTime: Date } | undefined {
  const top = readTlv(b, 0);
  const f = top?.tag === T.SEQUENCE ? allChildren(b, top) : undefined;
  if (!f || f.length < 5) return undefined;
  const [version, policy, imprint, serial, genTimeT] = f;
  if (version.tag !== T.INTEGER || policy.tag !== T.OID || imprint.tag !== T.SEQUENCE) return undefined;
  if (serial.tag !== T.INTEGER || genTimeT.tag !== T.GENERALIZED_TIME) return undefined;
  const mi = allChildren(b, imprint);
  const alg = mi && mi.length === 2 ? algIdOf(b, mi[0]) : undefined;
  const hashed = mi && isOctetString(mi[1]) ? octetsOf(b, mi[1]) : undefined;
  const genTime = timeOf(b, genTimeT);
  if (!alg || !hashed || !genTime) return undefined;
  return { alg, hashed, genTime };
}

/** Verifies an RFC 3161 token: its messageImprint over `data` and the TSA's signature. */
export function checkTimestampToken(token: Uint8Array, dataChunks: Uint8Array[]): TimestampCheck {
  const problems: string[] = [];
  let cms: ParsedCms;
  try {
    cms = parseCms(token);
  } catch (e) {
    const problems = [(e as Error).message];
    return { ok: false, unreadable: true, warnings: [], certs: [], imprintMatches: false, problems };
  }
  const warnings = cms.warnings;
  const unreadable = (why: string): TimestampCheck => ({
    ok: false,
    unreadable: true,
    warnings,
    certs: cms.certs,
    imprintMatches: false,
    problems: [why],
  });
  if (cms.eContentType !== OID.tstInfo || !cms.eContent) return unreadable('token does not hold TSTInfo');
  const eContent = cms.eContent;
  const tst = tstInfo(eContent);
  if (!tst) return unreadable('TSTInfo is malformed');
  const alg = digestName(tst.alg.oid);
  const imprintMatches = !!alg && eqBytes(hashChunks(alg, dataChunks), tst.hashed);
  if (!imprintMatches) problems.push('messageImprint does not match');
  let signer: SignerCheck = { intact: null, cryptoValid: null, certBound: null, problems: [] };
  if (!cms.signerCert) problems.push('TSA certificate not found in token');
  else if (!cms.digestAlg) problems.push('unsupported digest algorithm in token');
  else {
    signer = checkSigner(cms, hashChunks(cms.digestAlg, [eContent]), () => [eContent]);
    if (!cms.signedAttrsDer) problems.push('token has no signed attributes');
    // a TSTInfo changed after signing (genTime, imprint) must not pass as a sound token
    if (signer.intact === false) problems.push(TST_ALTERED);
    problems.push(...signer.problems);
  }
  const ok =
    imprintMatches &&
    signer.intact === true &&
    signer.cryptoValid === true &&
    signer.certBound !== false &&
    problems.length === 0;
  let tsaName: string | undefined;
  if (cms.signerCert) tsaName = nameAttr(cms.signerCert.subject, OID.commonName);
  return {
    ok,
    warnings,
    genTime: tst.genTime,
    tsaName,
    tsaCert: cms.signerCert,
    certs: cms.certs,
    imprintMatches,
    problems,
  };
}
