// SQL of the verification module: its own table verify_reports (migration 080). The document named by a
// verification code and its flow are read through the document and flow modules' index.ts (service.ts).
import { sql } from 'drizzle-orm';
import type { PlatformDocument, VerifyResult } from '#contract/calls/verify.ts';
import { type Exec, dateOf, jsonOf, one, ts } from '../../db/sql-helpers.ts';

/** A kept report as stored: the result gzip-compressed (report-codec.ts), or as jsonb in rows made before migration 140. */
export type ReportRow = {
  id: string;
  source: 'upload' | 'platform';
  verificationCode: string | null;
  result: { packed: Uint8Array } | { json: VerifyResult };
  document: PlatformDocument | null;
  expiresAt: Date;
};

export async function insertReport(
  ex: Exec,
  r: Omit<ReportRow, 'result'> & { packed: Uint8Array; createdAt: Date },
): Promise<void> {
  await ex.execute(sql`
    INSERT INTO verify_reports (id, source, verification_code, result_gzip, document, created_at, expires_at)
    VALUES (${r.id}, ${r.source}, ${r.verificationCode}, ${r.packed},
      ${r.document ? JSON.stringify(r.document) : null}::jsonb, ${ts(r.createdAt)}, ${ts(r.expiresAt)})`);
}

/** A kept report that has not expired yet. */
export async function findReport(ex: Exec, id: string, now: Date): Promise<ReportRow | undefined> {
  const row = await one<{
    id: string;
    source: 'upload' | 'platform';
    verification_code: string | null;
    result: unknown;
    result_gzip: Uint8Array | null;
    document: unknown;
    expires_at: unknown;
  }>(ex, sql`SELECT * FROM verify_reports WHERE id = ${id} AND expires_at > ${ts(now)}`);
  if (!row) return undefined;
  return {
    id: row.id,
    source: row.source,
    verificationCode: row.verification_code,
    result:
      row.result_gzip !== null
        ? { packed: new Uint8Array(row.result_gzip) }
        : { json: jsonOf<VerifyResult>(row.result) },
    document: row.document === null ? null : jsonOf<PlatformDocument>(row.document),
    expiresAt: dateOf(row.expires_at),
  };
}

/** Expired reports are deleted, not merely hidden: nothing of a checked file stays longer than promised. */
/**
 * Called before a report is kept: beyond `maxKept` with the coming one, the oldest go too (issue 16): a flood of uploads from many addresses must not grow the
 * table, and the database's memory with it, without bound within the hour. Every report lives equally long,
 * so the order of expiry is the order of creation (indexed).
 */
export async function pruneReports(ex: Exec, now: Date, maxKept: number): Promise<void> {
  await ex.execute(sql`DELETE FROM verify_reports WHERE expires_at <= ${ts(now)}`);
  await ex.execute(sql`
    DELETE FROM verify_reports WHERE expires_at <= (
      SELECT expires_at FROM verify_reports ORDER BY expires_at DESC OFFSET ${maxKept - 1} LIMIT 1)`);
}
