import { join } from 'node:path';
import { type CaHierarchy, loadOrCreateCa } from './ca.ts';
import type { CertHolder, CertRepository } from './cert-repository.ts';
import { pemEncode } from './crypto.ts';
import { buildCrl } from './crl.ts';
import { type AccountSubject, CertificateIssuer, type IssuedCertificate, subjectIdHash } from './issue.ts';
import { deriveKey, EncryptedKeyStore, type KeyStore } from './key-store.ts';
import { resolveMasterKey } from './master-key.ts';
import { respondOcsp } from './ocsp.ts';
import type { CaKeyKind, HashName, RevocationReason } from './profile.ts';
import { respondTimestamp, timestamp } from './tsa.ts';

type PkiLog = {
  info: (msg: string) => void;
  warn: (msg: string) => void;
  error: (obj: unknown, msg: string) => void;
};

export type PkiOptions = {
  /** DATA_DIR; the PKI keeps its files in DATA_DIR/pki. */
  dataDir: string;
  /** PUBLIC_URL: the base of the CRL, OCSP and CA-issuer addresses written into certificates. */
  publicUrl: string;
  /** ESIGN_MASTER_KEY (undefined when unset). */
  masterKey: string | undefined;
  isProduction: boolean;
  repository: CertRepository;
  log: PkiLog;
  /** Replaces the default encrypted-file KeyStore (an HSM or KMS). */
  keyStore?: KeyStore;
  organisation?: string;
  /** The key type of a CA made now (default EC); an existing CA keeps its own. Tests make RSA installs with it. */
  caKeys?: CaKeyKind;
  accountCertValidityDays?: number;
  now?: () => Date;
};

/** Everything the rest of the server uses of the certificate authority. */
export type Pki = {
  ca: CaHierarchy;
  /** DATA_DIR/pki/root.crt: the root certificate, PEM (what relying parties trust). */
  rootCertPath: string;
  rootPem: string;
  /** The issuing CA certificate, DER (the AIA caIssuers target). */
  issuingDer: Uint8Array;
  /** The TSA certificate, PEM (also in DATA_DIR/pki/tsa.crt). */
  tsaPem: string;
  issuer: CertificateIssuer;
  /** Current DER CRL of the issuing CA. */
  crl(): Promise<Uint8Array>;
  /** DER CRL of the root, made at start. */
  rootCrl: Uint8Array;
  respondOcsp(requestDer: Uint8Array): Promise<Uint8Array>;
  respondTimestamp(requestDer: Uint8Array): Promise<Uint8Array>;
  /** A time-stamp token (DER ContentInfo) over `messageImprint`, in process. */
  timestamp(messageImprint: Uint8Array, hashAlg?: HashName): Promise<Uint8Array>;
  issue(subject: AccountSubject): Promise<IssuedCertificate>;
  /**
   * The keyed hash written as a certificate's subject serialNumber, for a module that stores only the
   * hash of an ID number (and later issues with `{idHash}`). Throws PkiInputError on a malformed number.
   */
  subjectIdHash(userType: 0 | 1, idNumber: string): string;
  /** A 32-byte secret derived from the master key for one named purpose (e.g. provider callbacks). */
  deriveSecret(purpose: string): Buffer;
  current(holder: CertHolder): Promise<IssuedCertificate | undefined>;
  renew(holder: CertHolder): Promise<IssuedCertificate>;
  reissue(
    holder: CertHolder,
    change: { name: string; organisation?: string },
    reason?: RevocationReason,
  ): Promise<{ issued: IssuedCertificate; revokedSerial: string }>;
  revoke(serial: string, reason?: RevocationReason): Promise<void>;
  signer: CertificateIssuer['signer'];
};

type CaOpening = Omit<PkiOptions, 'repository' | 'accountCertValidityDays'>;

/** The master key, the key store and the CA hierarchy (loaded, or created at first start). */
async function openCa(opts: CaOpening) {
  const pkiDir = join(opts.dataDir, 'pki');
  const masterKey = resolveMasterKey({
    masterKey: opts.masterKey,
    isProduction: opts.isProduction,
    pkiDir,
    log: opts.log,
  });
  const keyStore = opts.keyStore ?? new EncryptedKeyStore(masterKey);
  const ca = await loadOrCreateCa({
    pkiDir,
    publicUrl: opts.publicUrl,
    keyStore,
    organisation: opts.organisation,
    log: opts.log,
    now: opts.now,
    keys: opts.caKeys,
  });
  return { pkiDir, masterKey, keyStore, ca };
}

/**
 * Creates the CA files a first start needs (or checks the existing ones), without the database: a server
 * calls it while its database starts, so a first start's key generation (on the thread pool) overlaps
 * the database's start instead of following it (EC keys take little, an RSA hierarchy took seconds). createPki then only loads what this wrote.
 */
export async function prepareCa(opts: CaOpening): Promise<void> {
  await openCa(opts);
}

/**
 * Starts the PKI: resolves the master key (refusing a production start without ESIGN_MASTER_KEY),
 * loads or creates the CA hierarchy in DATA_DIR/pki, and returns the operations on it.
 */
export async function createPki(opts: PkiOptions): Promise<Pki> {
  const { pkiDir, masterKey, keyStore, ca } = await openCa(opts);
  const subjectIdKey = deriveKey(masterKey, 'subject-id-hmac/v1');
  // Module secrets come from their own branch, so none of them equals a key the PKI uses itself.
  const moduleSecretRoot = deriveKey(masterKey, 'module-secrets/v1');
  const issuer = new CertificateIssuer({
    ca,
    keyStore,
    repository: opts.repository,
    publicUrl: opts.publicUrl,
    subjectIdKey,
    validityDays: opts.accountCertValidityDays,
    now: opts.now,
  });
  masterKey.fill(0);
  const onError = (err: unknown) => opts.log.error(err, 'pki: unexpected failure');
  const deps = { ca, repository: opts.repository, now: opts.now, onError };
  return {
    ca,
    rootCertPath: join(pkiDir, 'root.crt'),
    rootPem: ca.root.pem,
    issuingDer: ca.issuing.der,
    tsaPem: pemEncode(ca.tsa.der, 'CERTIFICATE'),
    issuer,
    crl: () => buildCrl(ca, opts.repository, opts.now?.() ?? new Date()),
    rootCrl: ca.rootCrl,
    respondOcsp: (der) => respondOcsp(der, deps),
    respondTimestamp: (der) => respondTimestamp(der, deps),
    timestamp: (imprint, hashAlg = 'SHA-256') => timestamp(imprint, hashAlg, deps),
    issue: (s) => issuer.issue(s),
    subjectIdHash: (userType, idNumber) => subjectIdHash(subjectIdKey, userType, idNumber),
    deriveSecret: (purpose) => deriveKey(moduleSecretRoot, purpose),
    current: (h) => issuer.current(h),
    renew: (h) => issuer.renew(h),
    reissue: (h, c, r) => issuer.reissue(h, c, r),
    revoke: (s, r) => issuer.revoke(s, r),
    signer: (h) => issuer.signer(h),
  };
}
