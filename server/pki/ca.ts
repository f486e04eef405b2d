import type { KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildName,
  type CertMaterial,
  certMaterial,
  revocationPointers,
  type SignerMaterial,
  signCertificate,
} from './certs.ts';
import { randomSerial, signParams, wholeSeconds, x509 } from './crypto.ts';
import type { GeneratedKey, KeyStore } from './key-store.ts';
import { type CaKeyKind, CaKeys, CaLifetime, Oid, pkiUrls, YEAR_MS } from './profile.ts';

/** The platform's CA hierarchy, loaded and ready: root (certificate only), issuing CA, TSA and OCSP signer. */
export type CaHierarchy = {
  root: CertMaterial;
  issuing: SignerMaterial;
  tsa: SignerMaterial;
  ocsp: SignerMaterial;
  /**
   * The TSA key as a node:crypto KeyObject (decrypted, in memory only), when the KeyStore can give one:
   * the time-stamp of every PDF signature is signed with it. Absent with an HSM/KMS KeyStore.
   */
  tsaKey?: KeyObject;
  /** DER CRL of the root (lists nothing unless the issuing CA is ever revoked), made at start. */
  rootCrl: Uint8Array;
};

type CaOptions = {
  /** DATA_DIR/pki */
  pkiDir: string;
  publicUrl: string;
  keyStore: KeyStore;
  /** Organisation in the CA names. */
  organisation?: string;
  log: { info: (msg: string) => void; warn: (msg: string) => void };
  now?: () => Date;
  /**
   * The key type of a new hierarchy (profile.ts `CaKeys`): EC unless told. Only a new root reads it: an
   * existing install keeps the type it has, and what it lacks or renews gets the type of its parent CA.
   */
  keys?: CaKeyKind;
};

/** File names under DATA_DIR/pki. The verifier reads the root from exactly `root.crt`. */
const CaFiles = {
  rootCrt: 'root.crt',
  issuingCrt: 'issuing.crt',
  tsaCrt: 'tsa.crt',
  ocspCrt: 'ocsp.crt',
  key: (name: CaRole) => `${name}.key.enc`,
} as const;
type CaRole = 'root' | 'issuing' | 'tsa' | 'ocsp';

const DEFAULT_ORGANISATION = 'ESign Platform';
// Issued certificates start a few minutes in the past so that a verifier whose clock is slightly behind
// does not see them as not yet valid.
const BACKDATE_MS = 5 * 60 * 1000;

function writeAtomic(path: string, data: string | Uint8Array, mode: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data, { mode });
  renameSync(tmp, path);
}

/** RSA or EC: the kind of an existing key, which what it certifies follows. */
const kindOf = (key: CryptoKey): CaKeyKind => (key.algorithm.name === 'ECDSA' ? 'ec' : 'rsa');

/**
 * Loads the CA hierarchy from DATA_DIR/pki, creating what is missing at first start: a root CA
 * (EC P-384, 20 years), an issuing CA (EC P-384, pathLen 0), a TSA certificate (EC P-256, EKU timeStamping,
 * critical) and an OCSP signer (EC P-256, EKU OCSPSigning, ocsp-nocheck), the last three from the issuing
 * CA. Later starts only load them (and replace a TSA or OCSP certificate close to expiry, with a key of the
 * issuing CA's type: an RSA install stays RSA throughout). Private keys are
 * written only in the KeyStore's stored form. Throws if the stored keys do not open under this master key,
 * rather than silently making a new CA that no earlier signature chains to.
 */
export async function loadOrCreateCa(opts: CaOptions): Promise<CaHierarchy> {
  const now = wholeSeconds(opts.now?.() ?? new Date());
  const urls = pkiUrls(opts.publicUrl);
  const org = opts.organisation ?? DEFAULT_ORGANISATION;
  mkdirSync(opts.pkiDir, { recursive: true, mode: 0o700 });
  const path = (f: string) => join(opts.pkiDir, f);
  const notBefore = new Date(now.getTime() - BACKDATE_MS);

  const load = async (role: CaRole, crtFile: string): Promise<SignerMaterial | undefined> => {
    if (!existsSync(path(crtFile)) || !existsSync(path(CaFiles.key(role)))) return undefined;
    const cert = new x509.X509Certificate(readFileSync(path(crtFile), 'utf8'));
    const privateKey = await opts.keyStore.loadPrivateKey(
      new Uint8Array(readFileSync(path(CaFiles.key(role)))),
      `ca:${role}`,
    );
    return { ...certMaterial(cert), privateKey };
  };
  const save = (role: CaRole, crtFile: string, m: CertMaterial, storedKey: Uint8Array) => {
    // Key first, certificate last: a certificate on disk always has its key beside it.
    writeAtomic(path(CaFiles.key(role)), storedKey, 0o600);
    writeAtomic(path(crtFile), m.pem, 0o644);
  };

  let created = false;
  let root = await load('root', CaFiles.rootCrt);
  // A new CA needs all four keys: generate them at once (the thread pool makes them side by side) rather
  // than one after another. Otherwise a key is generated only for what is missing or due for renewal.
  const fresh = new Map<CaRole, Promise<GeneratedKey>>();
  if (!root)
    for (const role of ['root', 'issuing', 'tsa', 'ocsp'] as const) {
      const key = opts.keyStore.generateKey(CaKeys[opts.keys ?? 'ec'][role], `ca:${role}`);
      key.catch(() => {}); // a failure reaches whoever awaits it below; no unhandled rejection meanwhile
      fresh.set(role, key);
    }
  // A key made later (a missing or renewed part of an existing install) has the type of its parent CA.
  const newKey = (role: CaRole, parent: CryptoKey) =>
    fresh.get(role) ?? opts.keyStore.generateKey(CaKeys[kindOf(parent)][role], `ca:${role}`);
  if (!root) {
    opts.log.warn(`creating a new root CA in ${opts.pkiDir}`);
    const key = await fresh.get('root')!;
    const cert = await signCertificate({
      serial: randomSerial(),
      subject: buildName({ c: 'CN', o: org, cn: `${org} Root CA` }),
      publicKey: key.publicKey,
      selfSigningKey: key.privateKey,
      notBefore,
      notAfter: new Date(now.getTime() + CaLifetime.rootYears * YEAR_MS),
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      ],
    });
    root = { ...certMaterial(cert), privateKey: key.privateKey };
    save('root', CaFiles.rootCrt, root, key.stored);
    created = true;
  }

  let issuing = created ? undefined : await load('issuing', CaFiles.issuingCrt);
  if (issuing && !(await issuing.cert.verify({ publicKey: root.cert.publicKey, signatureOnly: true }))) {
    throw new Error(`${path(CaFiles.issuingCrt)} is not signed by ${path(CaFiles.rootCrt)}`);
  }
  if (!issuing) {
    opts.log.info('creating the issuing CA');
    const key = await newKey('issuing', root.privateKey);
    const cert = await signCertificate({
      serial: randomSerial(),
      subject: buildName({ c: 'CN', o: org, cn: `${org} Issuing CA` }),
      publicKey: key.publicKey,
      issuer: root,
      notBefore,
      notAfter: new Date(
        Math.min(now.getTime() + CaLifetime.issuingYears * YEAR_MS, root.cert.notAfter.getTime()),
      ),
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        new x509.CRLDistributionPointsExtension([urls.rootCrl]),
      ],
    });
    issuing = { ...certMaterial(cert), privateKey: key.privateKey };
    save('issuing', CaFiles.issuingCrt, issuing, key.stored);
    created = true;
  }

  const issuingCa = issuing;
  const endEntity = async (
    role: 'tsa' | 'ocsp',
    crtFile: string,
    cn: string,
    years: number,
    extensions: x509.Extension[],
  ): Promise<SignerMaterial> => {
    const existing = created ? undefined : await load(role, crtFile);
    if (existing && existing.cert.notAfter.getTime() - now.getTime() > CaLifetime.renewBeforeMs)
      return existing;
    opts.log.info(existing ? `renewing the ${role} certificate` : `creating the ${role} certificate`);
    const key = await newKey(role, issuingCa.privateKey);
    const cert = await signCertificate({
      serial: randomSerial(),
      subject: buildName({ c: 'CN', o: org, cn }),
      publicKey: key.publicKey,
      issuer: issuingCa,
      notBefore,
      notAfter: new Date(Math.min(now.getTime() + years * YEAR_MS, issuingCa.cert.notAfter.getTime())),
      extensions,
    });
    const m = { ...certMaterial(cert), privateKey: key.privateKey };
    save(role, crtFile, m, key.stored);
    return m;
  };

  const tsa = await endEntity('tsa', CaFiles.tsaCrt, `${org} Time-Stamp Authority`, CaLifetime.tsaYears, [
    new x509.KeyUsagesExtension(
      x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation,
      true,
    ),
    // RFC 3161 §2.3: the TSA certificate has exactly this one extended key usage, marked critical.
    new x509.ExtendedKeyUsageExtension([Oid.timeStamping], true),
    ...revocationPointers({ crl: urls.crl, ocsp: urls.ocsp, issuingCrt: urls.issuingCrt }),
  ]);
  const ocsp = await endEntity('ocsp', CaFiles.ocspCrt, `${org} OCSP Responder`, CaLifetime.ocspYears, [
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([Oid.ocspSigning], false),
    // id-pkix-ocsp-nocheck (RFC 6960 §4.2.2.2.1): relying parties need not check the responder's own status.
    new x509.Extension(Oid.ocspNoCheck, false, new Uint8Array([0x05, 0x00])),
    new x509.CRLDistributionPointsExtension([urls.crl]),
  ]);

  const rootCrl = await x509.X509CrlGenerator.create({
    issuer: root.cert.subjectName,
    thisUpdate: now,
    nextUpdate: new Date(now.getTime() + YEAR_MS),
    signingKey: root.privateKey,
    signingAlgorithm: signParams(root.privateKey),
    extensions: [
      new x509.AuthorityKeyIdentifierExtension(
        root.cert.getExtension(x509.SubjectKeyIdentifierExtension)!.keyId,
      ),
      crlNumberExtension(now),
    ],
  });

  const tsaKey = opts.keyStore.loadKeyObject?.(
    new Uint8Array(readFileSync(path(CaFiles.key('tsa')))),
    'ca:tsa',
  );

  // The root key is not kept: after start, nothing here signs with it.
  const { privateKey: _dropped, ...rootPublic } = root;
  return { root: rootPublic, issuing, tsa, ocsp, tsaKey, rootCrl: new Uint8Array(rootCrl.rawData) };
}

/**
 * CRL number (RFC 5280 §5.2.3) from the clock: monotonic across restarts and instances without shared
 * state, as long as the clock does not run backwards.
 */
export function crlNumberExtension(at: Date): x509.Extension {
  let n = BigInt(Math.floor(at.getTime() / 1000));
  const bytes: number[] = [];
  do {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  } while (n > 0n);
  if (bytes[0] & 0x80) bytes.unshift(0);
  return new x509.Extension(Oid.crlNumber, false, new Uint8Array([0x02, bytes.length, ...bytes]));
}
