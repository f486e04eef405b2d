import { and, desc, eq, gt, lte } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { pkiCertificates } from '../../db/schema/pki.ts';
import {
  type CertHolder,
  type CertRecord,
  type CertRepository,
  CertStatus,
  type RevokedEntry,
} from '../../pki/cert-repository.ts';
import type { RevocationReason } from '../../pki/profile.ts';

type Row = typeof pkiCertificates.$inferSelect;

function toRecord(r: Row): CertRecord {
  return {
    serial: r.serial,
    userType: r.userType as 0 | 1,
    accountId: r.accountId,
    subject: r.subject,
    notBefore: r.notBefore,
    notAfter: r.notAfter,
    pem: r.pem,
    encryptedKey: new Uint8Array(r.encryptedKey),
    status: r.status,
    revokedAt: r.revokedAt,
    reason: r.revocationReason as RevocationReason | null,
    createdAt: r.createdAt,
  };
}

/** The certificate repository of server/pki over the database (table pki_certificates). */
export class DbCertRepository implements CertRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  async insert(r: CertRecord): Promise<void> {
    await this.#db.insert(pkiCertificates).values({
      serial: r.serial,
      userType: r.userType,
      accountId: r.accountId,
      subject: r.subject,
      notBefore: r.notBefore,
      notAfter: r.notAfter,
      pem: r.pem,
      encryptedKey: r.encryptedKey,
      status: r.status,
      revokedAt: r.revokedAt,
      revocationReason: r.reason,
      createdAt: r.createdAt,
    });
  }

  async findBySerial(serial: string): Promise<CertRecord | undefined> {
    const rows = await this.#db
      .select()
      .from(pkiCertificates)
      .where(eq(pkiCertificates.serial, serial))
      .limit(1);
    return rows[0] && toRecord(rows[0]);
  }

  /** Scoped to one holder: the account is part of every lookup, never inferred from a serial. */
  async findCurrent(holder: CertHolder, at: Date): Promise<CertRecord | undefined> {
    const rows = await this.#db
      .select()
      .from(pkiCertificates)
      .where(
        and(
          eq(pkiCertificates.accountId, holder.accountId),
          eq(pkiCertificates.userType, holder.userType),
          eq(pkiCertificates.status, CertStatus.Good),
          lte(pkiCertificates.notBefore, at),
          gt(pkiCertificates.notAfter, at),
        ),
      )
      .orderBy(desc(pkiCertificates.createdAt), desc(pkiCertificates.seq))
      .limit(1);
    return rows[0] && toRecord(rows[0]);
  }

  async markRevoked(serial: string, revokedAt: Date, reason: RevocationReason | null): Promise<boolean> {
    const rows = await this.#db
      .update(pkiCertificates)
      .set({ status: CertStatus.Revoked, revokedAt, revocationReason: reason })
      .where(and(eq(pkiCertificates.serial, serial), eq(pkiCertificates.status, CertStatus.Good)))
      .returning({ serial: pkiCertificates.serial });
    return rows.length === 1;
  }

  async listRevoked(at: Date): Promise<RevokedEntry[]> {
    const rows = await this.#db
      .select({
        serial: pkiCertificates.serial,
        revokedAt: pkiCertificates.revokedAt,
        reason: pkiCertificates.revocationReason,
      })
      .from(pkiCertificates)
      .where(and(eq(pkiCertificates.status, CertStatus.Revoked), gt(pkiCertificates.notAfter, at)))
      .orderBy(pkiCertificates.serial);
    return rows.map((r) => ({
      serial: r.serial,
      revokedAt: r.revokedAt!,
      reason: r.reason as RevocationReason | null,
    }));
  }
}

// For the certificate-change screen (cert module). Every query names the holder (the caller's person or
// company, decided by the cert service); none finds a certificate by serial alone. Key material is never
// selected.

const holderColumns = {
  serial: pkiCertificates.serial,
  subject: pkiCertificates.subject,
  notBefore: pkiCertificates.notBefore,
  notAfter: pkiCertificates.notAfter,
  pem: pkiCertificates.pem,
  status: pkiCertificates.status,
  revokedAt: pkiCertificates.revokedAt,
  revocationReason: pkiCertificates.revocationReason,
  createdAt: pkiCertificates.createdAt,
};

export type HolderCertRow = {
  serial: string;
  subject: string;
  notBefore: Date;
  notAfter: Date;
  pem: string;
  status: 'good' | 'revoked';
  revokedAt: Date | null;
  revocationReason: number | null;
  createdAt: Date;
};

/** Every certificate ever issued to the holder, newest first (the issue order breaks ties). */
export async function listHolderCertificates(db: Db, holder: CertHolder): Promise<HolderCertRow[]> {
  return db
    .select(holderColumns)
    .from(pkiCertificates)
    .where(
      and(eq(pkiCertificates.userType, holder.userType), eq(pkiCertificates.accountId, holder.accountId)),
    )
    .orderBy(desc(pkiCertificates.createdAt), desc(pkiCertificates.seq));
}

/** Serials of the holder's certificates that are still good and not yet expired at `at`. */
export async function listHolderGoodSerials(db: Db, holder: CertHolder, at: Date): Promise<string[]> {
  const rows = await db
    .select({ serial: pkiCertificates.serial })
    .from(pkiCertificates)
    .where(
      and(
        eq(pkiCertificates.userType, holder.userType),
        eq(pkiCertificates.accountId, holder.accountId),
        eq(pkiCertificates.status, 'good'),
        gt(pkiCertificates.notAfter, at),
      ),
    );
  return rows.map((r) => r.serial);
}
