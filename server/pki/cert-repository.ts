import type { RevocationReason } from './profile.ts';

export const CertStatus = { Good: 'good', Revoked: 'revoked' } as const;
export type CertStatus = (typeof CertStatus)[keyof typeof CertStatus];

/** Whose certificate it is: a person (userType 0, user id) or a company (userType 1, company id). */
export type CertHolder = { userType: 0 | 1; accountId: string };

/** One issued account certificate. The private key is only ever here in its KeyStore-stored form. */
export type CertRecord = CertHolder & {
  /** Lower-case hex, no sign byte. */
  serial: string;
  /** RFC 4514 text of the subject (for display; the certificate itself is authoritative). */
  subject: string;
  notBefore: Date;
  notAfter: Date;
  pem: string;
  encryptedKey: Uint8Array;
  status: CertStatus;
  revokedAt: Date | null;
  reason: RevocationReason | null;
  createdAt: Date;
};

export type RevokedEntry = { serial: string; revokedAt: Date; reason: RevocationReason | null };

/** Storage of issued certificates; server/modules/pki/queries.ts implements it over the database. */
export interface CertRepository {
  insert(record: CertRecord): Promise<void>;
  findBySerial(serial: string): Promise<CertRecord | undefined>;
  /** The newest good certificate of the holder still valid at `at`, if any (ties: the last inserted). */
  findCurrent(holder: CertHolder, at: Date): Promise<CertRecord | undefined>;
  /** Marks a good certificate revoked; false when it was unknown or already revoked. */
  markRevoked(serial: string, revokedAt: Date, reason: RevocationReason | null): Promise<boolean>;
  /** Every revoked certificate that has not yet expired at `at` (what a CRL must list). */
  listRevoked(at: Date): Promise<RevokedEntry[]>;
}

/** A CertRepository in memory, for tests and benchmarks. */
export class InMemoryCertRepository implements CertRepository {
  readonly records = new Map<string, CertRecord>();

  async insert(record: CertRecord): Promise<void> {
    if (this.records.has(record.serial)) throw new Error(`serial ${record.serial} already issued`);
    this.records.set(record.serial, { ...record });
  }

  async findBySerial(serial: string): Promise<CertRecord | undefined> {
    const r = this.records.get(serial);
    return r && { ...r };
  }

  async findCurrent(holder: CertHolder, at: Date): Promise<CertRecord | undefined> {
    let best: CertRecord | undefined;
    for (const r of this.records.values()) {
      if (r.userType !== holder.userType || r.accountId !== holder.accountId) continue;
      if (r.status !== CertStatus.Good || r.notAfter <= at || r.notBefore > at) continue;
      // Map iterates in insertion order, so >= lets the later of two equal times win.
      if (!best || r.createdAt >= best.createdAt) best = r;
    }
    return best && { ...best };
  }

  async markRevoked(serial: string, revokedAt: Date, reason: RevocationReason | null): Promise<boolean> {
    const r = this.records.get(serial);
    if (!r || r.status !== CertStatus.Good) return false;
    r.status = CertStatus.Revoked;
    r.revokedAt = revokedAt;
    r.reason = reason;
    return true;
  }

  async listRevoked(at: Date): Promise<RevokedEntry[]> {
    return [...this.records.values()]
      .filter((r) => r.status === CertStatus.Revoked && r.notAfter > at)
      .map((r) => ({ serial: r.serial, revokedAt: r.revokedAt!, reason: r.reason }));
  }
}
