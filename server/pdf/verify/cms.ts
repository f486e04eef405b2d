/**
 * CMS (PKCS #7) signature checks for PDF signatures and RFC 3161 time-stamp tokens.
 *
 * Parsing uses pkijs/asn1js; every cryptographic operation uses node:crypto. The functions here never
 * throw on hostile input: problems come back as `formatError` or as false/null results.
 */
import {
  createHash,
  createPublicKey,
  type KeyObject,
  constants as cryptoConstants,
  verify as cryptoVerify,
  publicDecrypt,
} from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

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
const SIG_ALGS: Record<string, [string, string | null]> = {
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

export function digestName(oid: string): string | undefined {
  return DIGESTS[oid];
}

export function hashChunks(alg: string, chunks: Uint8Array[]): Buffer {
  const h = createHash(alg);
  for (const c of chunks) h.update(c);
  return h.digest();
}

function eq(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A certificate with its DER bytes (needed for hashes and for node:crypto). */
export type Cert = { der: Uint8Array; pk: pkijs.Certificate };

export function certFromDer(der: Uint8Array): Cert | undefined {
  try {
    const pk = pkijs.Certificate.fromBER(der.slice());
    return { der, pk };
  } catch {
    return undefined;
  }
}

export function certFromPkijs(pk: pkijs.Certificate): Cert {
  return { der: new Uint8Array(pk.toSchema().toBER(false)), pk };
}

const keyCache = new WeakMap<Cert, KeyObject | null>();
export function publicKeyOf(cert: Cert): KeyObject | undefined {
  if (!keyCache.has(cert)) {
    let k: KeyObject | null = null;
    try {
      const spki = new Uint8Array(cert.pk.subjectPublicKeyInfo.toSchema().toBER(false));
      k = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
    } catch {
      k = null;
    }
    keyCache.set(cert, k);
  }
  return keyCache.get(cert) ?? undefined;
}

export function nameAttr(name: pkijs.RelativeDistinguishedNames, oid: string): string | undefined {
  for (const tv of name.typesAndValues) {
    if (tv.type === oid) {
      const v = tv.value as { valueBlock?: { value?: unknown } };
      if (typeof v?.valueBlock?.value === 'string') return v.valueBlock.value;
    }
  }
  return undefined;
}

export function serialHex(cert: Cert): string {
  return Buffer.from(cert.pk.serialNumber.valueBlock.valueHexView).toString('hex').toUpperCase();
}

/** Rejects non-minimal INTEGER encodings anywhere in the structure (DER; BouncyCastle refuses these too). */
function hasMalformedInteger(block: asn1js.AsnType, depth = 0): boolean {
  if (depth > 64) return true;
  const b = block as asn1js.BaseBlock;
  if (b instanceof asn1js.Integer) {
    const v = b.valueBlock.valueHexView;
    if (v.length > 1 && ((v[0] === 0 && v[1] < 0x80) || (v[0] === 0xff && v[1] >= 0x80))) return true;
    return false;
  }
  const inner = (b as { valueBlock?: { value?: unknown } }).valueBlock?.value;
  if (Array.isArray(inner)) {
    for (const c of inner) if (hasMalformedInteger(c as asn1js.AsnType, depth + 1)) return true;
  }
  return false;
}

export type SignatureCheck = {
  /** the digest in the CMS equals the digest of the signed data */
  intact: boolean | null;
  /** the signature value verifies with the signer's public key */
  cryptoValid: boolean | null;
  problems: string[];
};

/**
 * Verifies a signature value over data with the given algorithm. Returns null when the algorithm or key
 * cannot be handled here (reported as "unknown", never as valid).
 */
export function verifySignatureValue(
  sigAlg: pkijs.AlgorithmIdentifier,
  digestAlg: string,
  data: Uint8Array,
  signature: Uint8Array,
  key: KeyObject,
): boolean | null {
  const entry = SIG_ALGS[sigAlg.algorithmId];
  if (!entry) return null;
  const [family, fixedHash] = entry;
  const hash = fixedHash ?? digestAlg;
  try {
    if (family === 'rsa') {
      return cryptoVerify(hash, data, { key, padding: cryptoConstants.RSA_PKCS1_PADDING }, signature);
    }
    if (family === 'pss') {
      let pssHash = 'sha1';
      let saltLength = 20;
      if (sigAlg.algorithmParams) {
        const params = new pkijs.RSASSAPSSParams({ schema: sigAlg.algorithmParams });
        pssHash = digestName(params.hashAlgorithm.algorithmId) ?? 'sha1';
        saltLength = params.saltLength;
      }
      return cryptoVerify(
        pssHash,
        data,
        { key, padding: cryptoConstants.RSA_PKCS1_PSS_PADDING, saltLength },
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

export type ParsedCms = {
  signedData: pkijs.SignedData;
  signerInfo: pkijs.SignerInfo;
  certs: Cert[];
  signerCert?: Cert;
  digestAlg?: string;
  eContentType: string;
  eContent?: Uint8Array;
  signedAttr: (oid: string) => pkijs.Attribute[];
  unsignedAttr: (oid: string) => pkijs.Attribute[];
};

/** Decodes a CMS ContentInfo holding SignedData. Throws a message string on any structural problem. */
export function parseCms(der: Uint8Array): ParsedCms {
  const asn = asn1js.fromBER(der);
  if (asn.offset === -1) throw new Error('CMS is not decodable BER');
  if (hasMalformedInteger(asn.result)) throw new Error('CMS contains a malformed INTEGER');
  let ci: pkijs.ContentInfo;
  try {
    ci = new pkijs.ContentInfo({ schema: asn.result });
  } catch {
    throw new Error('CMS ContentInfo is malformed');
  }
  if (ci.contentType !== OID.signedData) throw new Error('CMS content is not SignedData');
  let sd: pkijs.SignedData;
  try {
    sd = new pkijs.SignedData({ schema: ci.content });
  } catch {
    throw new Error('CMS SignedData is malformed');
  }
  if (sd.signerInfos.length !== 1)
    throw new Error(`CMS has ${sd.signerInfos.length} signer infos (expected 1)`);
  const si = sd.signerInfos[0];
  const certs: Cert[] = [];
  // Take each certificate's original DER from the decoded tree: re-encoding through pkijs is slow.
  const sdBlocks = (ci.content as asn1js.Sequence).valueBlock?.value ?? [];
  const certSet = sdBlocks.find((b) => b.idBlock.tagClass === 3 && b.idBlock.tagNumber === 0) as
    | asn1js.Constructed
    | undefined;
  const rawCerts = certSet?.valueBlock?.value ?? [];
  (sd.certificates ?? []).forEach((c, i) => {
    if (!(c instanceof pkijs.Certificate)) return;
    const raw = rawCerts[i]?.valueBeforeDecodeView;
    certs.push(raw && raw.length > 0 ? { der: new Uint8Array(raw), pk: c } : certFromPkijs(c));
  });
  let signerCert: Cert | undefined;
  if (si.sid instanceof pkijs.IssuerAndSerialNumber) {
    const sid = si.sid;
    signerCert = certs.find(
      (c) => c.pk.issuer.isEqual(sid.issuer) && c.pk.serialNumber.isEqual(sid.serialNumber),
    );
  } else {
    const ski = new Uint8Array((si.sid as asn1js.OctetString).valueBlock.valueHexView);
    signerCert = certs.find((c) => {
      const ext = c.pk.extensions?.find((e) => e.extnID === OID.subjectKeyIdentifier);
      if (ext) {
        const v = asn1js.fromBER(ext.extnValue.valueBlock.valueHexView);
        if (v.offset !== -1 && v.result instanceof asn1js.OctetString)
          return eq(v.result.valueBlock.valueHexView, ski);
      }
      return eq(
        createHash('sha1')
          .update(c.pk.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView)
          .digest(),
        ski,
      );
    });
  }
  const eci = sd.encapContentInfo;
  let eContent: Uint8Array | undefined;
  if (eci.eContent) eContent = new Uint8Array(eci.eContent.getValue());
  const attrs = (list: pkijs.SignedAndUnsignedAttributes | undefined, oid: string) =>
    (list?.attributes ?? []).filter((a) => a.type === oid);
  return {
    signedData: sd,
    signerInfo: si,
    certs,
    signerCert,
    digestAlg: digestName(si.digestAlgorithm.algorithmId),
    eContentType: eci.eContentType,
    eContent,
    signedAttr: (oid) => attrs(si.signedAttrs, oid),
    unsignedAttr: (oid) => attrs(si.unsignedAttrs, oid),
  };
}

function octets(attr: pkijs.Attribute | undefined): Uint8Array | undefined {
  const v = attr?.values?.[0];
  return v instanceof asn1js.OctetString ? new Uint8Array(v.valueBlock.valueHexView) : undefined;
}

/** Checks that a signing-certificate(-v2) attribute, if present, names the signer certificate. */
function signingCertificateBinds(cms: ParsedCms, cert: Cert): boolean | null {
  const v2 = cms.signedAttr(OID.signingCertificateV2)[0];
  const v1 = cms.signedAttr(OID.signingCertificate)[0];
  const attr = v2 ?? v1;
  if (!attr) return null;
  try {
    const seq = attr.values[0] as asn1js.Sequence;
    const certsSeq = seq.valueBlock.value[0] as asn1js.Sequence;
    const first = certsSeq.valueBlock.value[0] as asn1js.Sequence;
    const parts = first.valueBlock.value;
    let alg = 'sha1';
    let hashPart: asn1js.AsnType = parts[0];
    if (v2) {
      alg = 'sha256';
      if (parts[0] instanceof asn1js.Sequence) {
        const ai = new pkijs.AlgorithmIdentifier({ schema: parts[0] });
        alg = digestName(ai.algorithmId) ?? 'unknown';
        hashPart = parts[1];
      }
    }
    if (!(hashPart instanceof asn1js.OctetString)) return false;
    if (alg === 'unknown') return false;
    return eq(createHash(alg).update(cert.der).digest(), hashPart.valueBlock.valueHexView);
  } catch {
    return false;
  }
}

export type SignerCheck = SignatureCheck & {
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
  content: () => Uint8Array[],
): SignerCheck {
  const problems: string[] = [];
  const si = cms.signerInfo;
  const cert = cms.signerCert;
  const key = cert ? publicKeyOf(cert) : undefined;
  const sig = new Uint8Array(si.signature.valueBlock.valueHexView);
  const digestAlg = cms.digestAlg;
  if (!digestAlg)
    return { intact: null, cryptoValid: null, certBound: null, problems: ['unsupported digest algorithm'] };
  if (si.signedAttrs) {
    const md = cms.signedAttr(OID.messageDigest);
    const ct = cms.signedAttr(OID.contentType);
    if (md.length !== 1) problems.push('signed attributes must hold exactly one message-digest');
    if (ct.length !== 1) problems.push('signed attributes must hold exactly one content-type');
    else {
      const v = ct[0].values[0];
      if (!(v instanceof asn1js.ObjectIdentifier) || v.valueBlock.toString() !== cms.eContentType)
        problems.push('content-type attribute differs from the encapsulated content type');
    }
    const intact = md.length === 1 ? eq(octets(md[0]), contentDigest) : false;
    let cryptoValid: boolean | null = null;
    if (key) {
      cryptoValid = verifySignatureValue(
        si.signatureAlgorithm,
        digestAlg,
        new Uint8Array(si.signedAttrs.encodedValue),
        sig,
        key,
      );
    }
    let signingTime: Date | undefined;
    const st = cms.signedAttr(OID.signingTime)[0]?.values[0];
    if (st instanceof asn1js.UTCTime || st instanceof asn1js.GeneralizedTime) signingTime = st.toDate();
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
  const entry = SIG_ALGS[si.signatureAlgorithm.algorithmId];
  if (entry && entry[0] === 'rsa') {
    // Recover the DigestInfo so a content change (hash) and a bad signature (crypto) are told apart.
    try {
      const di = publicDecrypt({ key, padding: cryptoConstants.RSA_PKCS1_PADDING }, sig);
      const parsed = asn1js.fromBER(di);
      const seq = parsed.result as asn1js.Sequence;
      const dg = seq.valueBlock.value[1] as asn1js.OctetString;
      const intact = eq(new Uint8Array(dg.valueBlock.valueHexView), contentDigest);
      return { intact, cryptoValid: true, certBound: null, problems };
    } catch {
      return { intact: null, cryptoValid: false, certBound: null, problems };
    }
  }
  const data = Buffer.concat(content());
  const ok = verifySignatureValue(si.signatureAlgorithm, digestAlg, data, sig, key);
  return { intact: ok, cryptoValid: ok, certBound: null, problems };
}

export type TimestampCheck = {
  ok: boolean;
  genTime?: Date;
  tsaName?: string;
  tsaCert?: Cert;
  certs: Cert[];
  imprintMatches: boolean;
  problems: string[];
};

/** Verifies an RFC 3161 token: its messageImprint over `data` and the TSA's signature. */
export function checkTimestampToken(token: Uint8Array, dataChunks: Uint8Array[]): TimestampCheck {
  const problems: string[] = [];
  let cms: ParsedCms;
  try {
    cms = parseCms(token);
  } catch (e) {
    return { ok: false, certs: [], imprintMatches: false, problems: [(e as Error).message] };
  }
  if (cms.eContentType !== OID.tstInfo || !cms.eContent)
    return { ok: false, certs: cms.certs, imprintMatches: false, problems: ['token does not hold TSTInfo'] };
  let tst: pkijs.TSTInfo;
  try {
    tst = pkijs.TSTInfo.fromBER(cms.eContent.slice());
  } catch {
    return { ok: false, certs: cms.certs, imprintMatches: false, problems: ['TSTInfo is malformed'] };
  }
  const alg = digestName(tst.messageImprint.hashAlgorithm.algorithmId);
  const imprintMatches =
    !!alg &&
    eq(hashChunks(alg, dataChunks), new Uint8Array(tst.messageImprint.hashedMessage.valueBlock.valueHexView));
  if (!imprintMatches) problems.push('messageImprint does not match');
  let signer: SignerCheck = { intact: null, cryptoValid: null, certBound: null, problems: [] };
  if (!cms.signerCert) problems.push('TSA certificate not found in token');
  else if (!cms.digestAlg) problems.push('unsupported digest algorithm in token');
  else {
    signer = checkSigner(cms, hashChunks(cms.digestAlg, [cms.eContent]), () => [cms.eContent!]);
    if (!cms.signerInfo.signedAttrs) problems.push('token has no signed attributes');
    problems.push(...signer.problems);
  }
  const ok =
    imprintMatches &&
    signer.intact === true &&
    signer.cryptoValid === true &&
    signer.certBound !== false &&
    problems.length === 0;
  let tsaName: string | undefined;
  if (cms.signerCert) tsaName = nameAttr(cms.signerCert.pk.subject, OID.commonName);
  return {
    ok,
    genTime: tst.genTime,
    tsaName,
    tsaCert: cms.signerCert,
    certs: cms.certs,
    imprintMatches,
    problems,
  };
}
