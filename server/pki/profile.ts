// Object identifiers and the fixed choices of this CA's certificate profiles.

export const Oid = {
  commonName: '2.5.4.3',
  serialNumber: '2.5.4.5',
  country: '2.5.4.6',
  organization: '2.5.4.10',
  crlNumber: '2.5.29.20',
  emailProtection: '1.3.6.1.5.5.7.3.4',
  /** id-kp-documentSigning (RFC 9336). */
  documentSigning: '1.3.6.1.5.5.7.3.36',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  ocspSigning: '1.3.6.1.5.5.7.3.9',
  ocspNoCheck: '1.3.6.1.5.5.7.48.1.5',
  ocspBasic: '1.3.6.1.5.5.7.48.1.1',
  ocspNonce: '1.3.6.1.5.5.7.48.1.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
} as const;

/**
 * The time-stamp policy of this TSA. 2.25.<uuid as integer> is a private arc anyone may use without
 * registration (ITU-T X.667): this is UUID 0f7680e8-69c7-42c1-84c2-1154c9c991ad, generated for this product.
 */
export const TSA_POLICY_OID = '2.25.20553725528180635992184538080159044013';

/** Hash algorithms the TSA and OCSP responder accept, by OID, with their WebCrypto name and length. */
export const HASHES: Record<string, { name: 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512'; length: number }> = {
  [Oid.sha1]: { name: 'SHA-1', length: 20 },
  [Oid.sha256]: { name: 'SHA-256', length: 32 },
  [Oid.sha384]: { name: 'SHA-384', length: 48 },
  [Oid.sha512]: { name: 'SHA-512', length: 64 },
};
export type HashName = 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512';
export const HASH_OID_BY_NAME: Record<HashName, string> = {
  'SHA-1': Oid.sha1,
  'SHA-256': Oid.sha256,
  'SHA-384': Oid.sha384,
  'SHA-512': Oid.sha512,
};

/** RFC 5280 CRLReason codes (7 is unused by the standard). */
export const RevocationReason = {
  Unspecified: 0,
  KeyCompromise: 1,
  CaCompromise: 2,
  /** The subject's name or other details changed; the key is not suspected. */
  AffiliationChanged: 3,
  Superseded: 4,
  CessationOfOperation: 5,
  CertificateHold: 6,
  PrivilegeWithdrawn: 9,
} as const;
export type RevocationReason = (typeof RevocationReason)[keyof typeof RevocationReason];
export const REVOCATION_REASONS: readonly number[] = Object.values(RevocationReason);

export const DAY_MS = 24 * 60 * 60 * 1000;
export const YEAR_MS = 365 * DAY_MS;

export const CaLifetime = {
  rootYears: 20,
  issuingYears: 10,
  tsaYears: 8,
  ocspYears: 2,
  /** The OCSP and TSA certificates are replaced at start when less than this is left. */
  renewBeforeMs: 90 * DAY_MS,
} as const;

/** How one key is made: RSA of a modulus length, or EC on a named curve (ECDSA). */
export type KeySpec = { kind: 'rsa'; modulusLength: number } | { kind: 'ec'; namedCurve: 'P-256' | 'P-384' };

/**
 * The keys of a new CA hierarchy. `ec` is what a new install makes: P-384 for the root and issuing CA (they
 * sign with ecdsa-with-SHA384), P-256 for the TSA and the OCSP signer (ecdsa-with-SHA256), generated in
 * well under a millisecond and cheap to sign with. `rsa` is the hierarchy installs made before (RSA
 * 4096/3072/3072/2048, sha256WithRSAEncryption); such an install keeps it, and tests make one to prove so.
 */
export const CaKeys = {
  ec: {
    root: { kind: 'ec', namedCurve: 'P-384' },
    issuing: { kind: 'ec', namedCurve: 'P-384' },
    tsa: { kind: 'ec', namedCurve: 'P-256' },
    ocsp: { kind: 'ec', namedCurve: 'P-256' },
  },
  rsa: {
    root: { kind: 'rsa', modulusLength: 4096 },
    issuing: { kind: 'rsa', modulusLength: 3072 },
    tsa: { kind: 'rsa', modulusLength: 3072 },
    ocsp: { kind: 'rsa', modulusLength: 2048 },
  },
} as const satisfies Record<string, Record<'root' | 'issuing' | 'tsa' | 'ocsp', KeySpec>>;
export type CaKeyKind = keyof typeof CaKeys;

/** Account (signer) keys: RSA, what every PDF reader accepts. */
export const KeySize = { account: 2048 } as const;

/** The URLs this server publishes for relying parties; all under PUBLIC_URL. */
export function pkiUrls(publicUrl: string) {
  const base = `${publicUrl.replace(/\/+$/, '')}/v1/pki`;
  return {
    rootCrt: `${base}/root.crt`,
    rootCrl: `${base}/root.crl`,
    issuingCrt: `${base}/issuing.crt`,
    crl: `${base}/crl`,
    ocsp: `${base}/ocsp`,
    tsa: `${base}/tsa`,
  };
}
