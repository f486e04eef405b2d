import { createHmac } from 'node:crypto';
import type { CaHierarchy } from './ca.ts';
import { type CertHolder, type CertRecord, type CertRepository, CertStatus } from './cert-repository.ts';
import { buildName, revocationPointers, signCertificate } from './certs.ts';
import { pemDecode, randomSerial, toHex, wholeSeconds, x509 } from './crypto.ts';
import type { KeyStore } from './key-store.ts';
import { DAY_MS, KeySize, Oid, pkiUrls, REVOCATION_REASONS, RevocationReason } from './profile.ts';

export class PkiInputError extends Error {
  override name = 'PkiInputError';
}

/** Who a new certificate is for. The ID number is only hashed; it never reaches the certificate or a row. */
export type AccountSubject = CertHolder & {
  /** Person's name, or the company's name for a company certificate (CN). */
  name: string;
  /** Company name (O); required for userType 1, ignored for persons. */
  organisation?: string;
} & (
    | {
        /** Resident ID number (person) or unified social credit code (company). */
        idNumber: string;
      }
    | {
        /** subjectIdHash() of the number, computed earlier (a module that keeps only the hash). */
        idHash: string;
      }
  );

/** An issued certificate as callers see it: no key material. */
export type IssuedCertificate = Omit<CertRecord, 'encryptedKey'>;

type IssuerDeps = {
  ca: CaHierarchy;
  keyStore: KeyStore;
  repository: CertRepository;
  publicUrl: string;
  /** HMAC key for the subject serialNumber, derived from the master key. */
  subjectIdKey: Uint8Array;
  /** Validity of account certificates in days (365..730). */
  validityDays?: number;
  now?: () => Date;
};

// RFC 5280 upper bounds: CN and O at most 64 characters.
const MAX_NAME = 64;
const BACKDATE_MS = 5 * 60 * 1000;

const keyLabel = (serial: string) => `account:${serial}`;

/** Strips what a key of the signing code must not see. */
function presentCertificate(r: CertRecord): IssuedCertificate {
  const { encryptedKey: _omit, ...rest } = r;
  return rest;
}

/**
 * The value of the subject serialNumber: HMAC-SHA256 of the normalised ID number under a key derived from
 * the master key, in hex (64 characters, the X.520 limit). The same person always gets the same value,
 * so certificates of one holder can be matched, but the number cannot be read back or guessed offline.
 */
export function subjectIdHash(subjectIdKey: Uint8Array, userType: 0 | 1, idNumber: string): string {
  const normalised = idNumber.trim().toUpperCase();
  if (!/^[0-9A-Z]{6,32}$/.test(normalised)) throw new PkiInputError('ID number or credit code is malformed');
  return createHmac('sha256', subjectIdKey).update(`${userType}:${normalised}`).digest('hex');
}

function checkIdHash(value: string): string {
  if (!/^[0-9a-f]{64}$/.test(value)) throw new PkiInputError('ID hash must be 64 lower-case hex characters');
  return value;
}

function checkName(label: string, value: string | undefined): string {
  const v = (value ?? '').trim();
  if (!v) throw new PkiInputError(`${label} is required`);
  if ([...v].length > MAX_NAME) throw new PkiInputError(`${label} is longer than ${MAX_NAME} characters`);
  // Control characters in a DN confuse displays and parsers alike.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\u0000-\u001f\u007f]/.test(v)) throw new PkiInputError(`${label} contains control characters`);
  return v;
}

/** Issues, renews, reissues and revokes account certificates from the issuing CA. */
export class CertificateIssuer {
  readonly #d: IssuerDeps;
  constructor(deps: IssuerDeps) {
    const days = deps.validityDays ?? 365;
    if (days < 365 || days > 730) throw new Error('account certificate validity must be 365..730 days');
    this.#d = { ...deps, validityDays: days };
  }

  #now(): Date {
    return wholeSeconds(this.#d.now?.() ?? new Date());
  }

  /**
   * Issues a certificate for an account: a new RSA-2048 key generated here and stored encrypted, subject
   * CN (+ O for a company), C=CN and serialNumber = keyed hash of the ID number; keyUsage
   * digitalSignature + nonRepudiation (critical); CRL and OCSP/CA-issuer pointers to PUBLIC_URL.
   * Rejects empty or over-long names, a company without organisation, a malformed ID number.
   */
  async issue(subject: AccountSubject): Promise<IssuedCertificate> {
    const name = checkName('name', subject.name);
    const organisation = subject.userType === 1 ? checkName('organisation', subject.organisation) : undefined;
    const serialNumber =
      'idHash' in subject
        ? checkIdHash(subject.idHash)
        : subjectIdHash(this.#d.subjectIdKey, subject.userType, subject.idNumber);
    return this.#issueWithName(subject, buildName({ c: 'CN', o: organisation, cn: name, serialNumber }));
  }

  async #issueWithName(holder: CertHolder, subjectName: x509.Name): Promise<IssuedCertificate> {
    const { ca, keyStore, repository } = this.#d;
    const urls = pkiUrls(this.#d.publicUrl);
    const now = this.#now();
    const serialBytes = randomSerial();
    const serial = toHex(serialBytes);
    const key = await keyStore.generateKey({ kind: 'rsa', modulusLength: KeySize.account }, keyLabel(serial));
    const notAfter = new Date(
      Math.min(now.getTime() + this.#d.validityDays! * DAY_MS, ca.issuing.cert.notAfter.getTime()),
    );
    const cert = await signCertificate({
      serial: serialBytes,
      subject: subjectName,
      publicKey: key.publicKey,
      issuer: ca.issuing,
      notBefore: new Date(now.getTime() - BACKDATE_MS),
      notAfter,
      extensions: [
        new x509.KeyUsagesExtension(
          x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation,
          true,
        ),
        // emailProtection is what NSS (poppler's pdfsig) and Adobe check for a document signer when an EKU
        // is present; documentSigning (RFC 9336) states the purpose for verifiers that know it.
        new x509.ExtendedKeyUsageExtension([Oid.emailProtection, Oid.documentSigning], false),
        ...revocationPointers({ crl: urls.crl, ocsp: urls.ocsp, issuingCrt: urls.issuingCrt }),
      ],
    });
    const record: CertRecord = {
      userType: holder.userType,
      accountId: holder.accountId,
      serial,
      subject: cert.subject,
      notBefore: cert.notBefore,
      notAfter: cert.notAfter,
      pem: `${cert.toString('pem').trim()}\n`,
      encryptedKey: key.stored,
      status: CertStatus.Good,
      revokedAt: null,
      reason: null,
      createdAt: now,
    };
    await repository.insert(record);
    return presentCertificate(record);
  }

  /** The holder's current certificate (newest good, in its validity period), or undefined. */
  async current(holder: CertHolder): Promise<IssuedCertificate | undefined> {
    const r = await this.#d.repository.findCurrent(holder, this.#now());
    return r && presentCertificate(r);
  }

  /**
   * What the signing code needs for one holder: the certificate, its key (usable, not extractable) and
   * the chain up to the root (issuing CA, root), all DER. Undefined when the holder has no current
   * certificate.
   */
  async signer(
    holder: CertHolder,
  ): Promise<
    | { certificate: IssuedCertificate; der: Uint8Array; privateKey: CryptoKey; chain: Uint8Array[] }
    | undefined
  > {
    const r = await this.#d.repository.findCurrent(holder, this.#now());
    if (!r) return undefined;
    const privateKey = await this.#d.keyStore.loadPrivateKey(r.encryptedKey, keyLabel(r.serial));
    // The stored PEM is what this CA issued: its DER is all signing needs, no parse.
    const der = pemDecode(r.pem);
    return {
      certificate: presentCertificate(r),
      der,
      privateKey,
      chain: [this.#d.ca.issuing.der, this.#d.ca.root.der],
    };
  }

  /**
   * Renews: a new key and certificate with the same subject as the current one. The old certificate
   * stays valid until it expires (documents signed with it stay verifiable). Rejects when the holder
   * has no current certificate.
   */
  async renew(holder: CertHolder): Promise<IssuedCertificate> {
    const old = await this.#d.repository.findCurrent(holder, this.#now());
    if (!old) throw new PkiInputError('no current certificate to renew');
    return this.#issueWithName(holder, new x509.X509Certificate(old.pem).subjectName);
  }

  /**
   * Revoke-and-reissue, for a name change: a new certificate with the new name (the hashed ID number is
   * carried over, so the ID number is not needed again), then the old one is revoked with `reason`
   * (default affiliationChanged, RFC 5280's reason for a changed name).
   */
  async reissue(
    holder: CertHolder,
    change: { name: string; organisation?: string },
    reason: RevocationReason = RevocationReason.AffiliationChanged,
  ): Promise<{ issued: IssuedCertificate; revokedSerial: string }> {
    const old = await this.#d.repository.findCurrent(holder, this.#now());
    if (!old) throw new PkiInputError('no current certificate to reissue');
    const oldName = new x509.X509Certificate(old.pem).subjectName;
    const serialNumber = oldName.getField(Oid.serialNumber)[0];
    const name = checkName('name', change.name);
    const organisation = holder.userType === 1 ? checkName('organisation', change.organisation) : undefined;
    // Issue first: if anything fails, the holder still has a certificate.
    const issued = await this.#issueWithName(
      holder,
      buildName({ c: 'CN', o: organisation, cn: name, serialNumber }),
    );
    await this.revoke(old.serial, reason);
    return { issued, revokedSerial: old.serial };
  }

  /** Revokes one certificate; it shows as revoked in the CRL and OCSP from now on. */
  async revoke(serial: string, reason: RevocationReason = RevocationReason.Unspecified): Promise<void> {
    if (!REVOCATION_REASONS.includes(reason)) throw new PkiInputError(`unknown revocation reason ${reason}`);
    const ok = await this.#d.repository.markRevoked(serial.toLowerCase(), this.#now(), reason);
    if (!ok) throw new PkiInputError(`certificate ${serial} is unknown or already revoked`);
  }
}
