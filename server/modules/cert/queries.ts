import { and, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { pkiCertificates } from '../../db/schema/pki.ts';
import type { CertHolder } from '../../pki/cert-repository.ts';

// SQL of the certificate-change screen. Every query names the holder (the caller's person or company,
// decided by the service); no query finds a certificate by serial alone. Key material is never selected.

const columns = {
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
    .select(columns)
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
