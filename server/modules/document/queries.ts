// Every SQL statement on the document module's tables: `documents` (one row per uploaded PDF, its current
// version pointer, its flow once launched) and `document_versions` (every version's blob, why it was made).
// Other modules read and move documents through these functions (document/index.ts), never by SQL.
// Raw SQL; rows come back camelCase (camelRows/camelOne) as DocumentRecord.
import { sql } from 'drizzle-orm';
import { type Exec, camelOne, camelRows, rows, ts } from '../../db/sql-helpers.ts';

import type { Account } from '../../lib/account.ts';

/** An uploaded PDF: its current version's blob, and its flow and verification code once launched. */
export type DocumentRecord = {
  id: string;
  ownerType: number;
  ownerId: string;
  uploadedBy: string;
  name: string;
  originalKey: string;
  originalSha256: string;
  pages: number;
  pageSizes: unknown;
  currentKey: string;
  currentSha256: string;
  currentSize: number;
  version: number;
  signatureCount: number;
  flowId: string | null;
  launchedSha256: string | null;
  verificationCode: string | null;
  isLtvDone: boolean;
  createdAt: unknown;
  deletedAt: unknown;
};

/** Stores a new upload: its row and its version 0. */
export async function insertUpload(
  ex: Exec,
  d: {
    id: string;
    account: Account;
    uploadedBy: string;
    name: string;
    key: string;
    sha: string;
    pages: number;
    pageSizes: unknown;
    size: number;
    now: Date;
  },
): Promise<void> {
  await ex.execute(sql`
    INSERT INTO documents (id, owner_type, owner_id, uploaded_by, name, original_key, original_sha256, pages,
      page_sizes, current_key, current_sha256, current_size, created_at)
    VALUES (${d.id}, ${d.account.ownerType}, ${d.account.ownerId}, ${d.uploadedBy}, ${d.name}, ${d.key}, ${d.sha},
      ${d.pages}, ${JSON.stringify(d.pageSizes)}::jsonb, ${d.key}, ${d.sha}, ${d.size}, ${ts(d.now)})`);
  await ex.execute(sql`
    INSERT INTO document_versions (document_id, version, blob_key, sha256, size, reason, created_at)
    VALUES (${d.id}, 0, ${d.key}, ${d.sha}, ${d.size}, 'upload', ${ts(d.now)})`);
}

export async function findDocument(ex: Exec, id: string): Promise<DocumentRecord | undefined> {
  return camelOne<DocumentRecord>(ex, sql`SELECT * FROM documents WHERE id = ${id} AND deleted_at IS NULL`);
}

/** A live document of this account, or undefined. */
export async function findOwnedDocument(
  ex: Exec,
  account: Account,
  id: string,
): Promise<DocumentRecord | undefined> {
  return camelOne<DocumentRecord>(
    ex,
    sql`SELECT * FROM documents WHERE id = ${id} AND owner_type = ${account.ownerType}
        AND owner_id = ${account.ownerId} AND deleted_at IS NULL`,
  );
}

/** Marks a document deleted, only while it is not launched. */
export async function markDeleted(ex: Exec, id: string, now: Date): Promise<void> {
  await ex.execute(sql`UPDATE documents SET deleted_at = ${ts(now)} WHERE id = ${id} AND flow_id IS NULL`);
}

/** The launched document a verification code names. */
/** The launched documents whose current version has this SHA-256 (a signed PDF as downloaded). */
export async function launchedBySha256(ex: Exec, sha256: string): Promise<DocumentRecord[]> {
  return camelRows<DocumentRecord>(
    ex,
    sql`SELECT * FROM documents WHERE current_sha256 = ${sha256} AND flow_id IS NOT NULL AND deleted_at IS NULL`,
  );
}

export async function findByVerificationCode(ex: Exec, code: string): Promise<DocumentRecord | undefined> {
  return camelOne<DocumentRecord>(
    ex,
    sql`SELECT * FROM documents WHERE verification_code = ${code} AND flow_id IS NOT NULL`,
  );
}

/** The documents of a flow, in launch order. */
export async function flowDocuments(ex: Exec, flowId: string): Promise<DocumentRecord[]> {
  return camelRows<DocumentRecord>(
    ex,
    sql`SELECT * FROM documents WHERE flow_id = ${flowId} ORDER BY created_at, id`,
  );
}

/** The document names of each flow (lists), in launch order. */
export async function documentNamesOf(ex: Exec, flowIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (flowIds.length === 0) return out;
  const list = await camelRows<{ flowId: string; name: string }>(
    ex,
    sql`SELECT flow_id, name FROM documents WHERE flow_id IN (${sql.join(
      flowIds.map((id) => sql`${id}`),
      sql`, `,
    )}) ORDER BY created_at, id`,
  );
  for (const r of list) out.set(r.flowId, [...(out.get(r.flowId) ?? []), r.name]);
  return out;
}

/**
 * Locks a document's row for the rest of the transaction (the audit chain of that document appends one
 * entry at a time under it).
 */
export async function lockDocument(ex: Exec, id: string): Promise<void> {
  await ex.execute(sql`SELECT id FROM documents WHERE id = ${id} FOR UPDATE`);
}

/**
 * Launch: moves a not-yet-launched document (at the version read) into a flow with its stamped version and
 * verification code, and records that version. False when another launch took it in the meantime.
 */
export async function attachToFlow(
  ex: Exec,
  from: Pick<DocumentRecord, 'id' | 'version'>,
  to: { flowId: string; key: string; sha: string; size: number; code: string; now: Date },
): Promise<boolean> {
  const moved = await rows(
    ex,
    sql`UPDATE documents SET flow_id = ${to.flowId}, current_key = ${to.key}, current_sha256 = ${to.sha},
          current_size = ${to.size}, version = version + 1, launched_sha256 = ${to.sha},
          verification_code = ${to.code}
        WHERE id = ${from.id} AND flow_id IS NULL AND version = ${from.version} RETURNING id`,
  );
  if (moved.length !== 1) return false;
  await ex.execute(sql`
    INSERT INTO document_versions (document_id, version, blob_key, sha256, size, reason, created_at)
    VALUES (${from.id}, ${from.version + 1}, ${to.key}, ${to.sha}, ${to.size}, 'launch', ${ts(to.now)})`);
  return true;
}

/**
 * A signature or the B-LTA data: moves the version pointer from the version read to a new blob, in one
 * statement with the version row (the UPDATE also locks the document row, which the audit append then
 * relies on). False when another writer moved it first.
 */
export async function moveToVersion(
  ex: Exec,
  from: Pick<DocumentRecord, 'id' | 'version'>,
  next: { key: string; sha: string; size: number; reason: 'sign' | 'ltv'; partyId: string | null; now: Date },
): Promise<boolean> {
  const moved = await rows(
    ex,
    sql`WITH moved AS (
          UPDATE documents SET current_key = ${next.key}, current_sha256 = ${next.sha}, current_size = ${next.size},
            version = version + 1,
            signature_count = signature_count + ${next.reason === 'sign' ? 1 : 0},
            is_ltv_done = is_ltv_done OR ${next.reason === 'ltv'}
          WHERE id = ${from.id} AND version = ${from.version} RETURNING id, version)
        INSERT INTO document_versions (document_id, version, blob_key, sha256, size, reason, party_id, created_at)
        SELECT id, version, ${next.key}, ${next.sha}, ${next.size}, ${next.reason}, ${next.partyId}, ${ts(next.now)}
        FROM moved RETURNING document_id`,
  );
  return moved.length === 1;
}

/** Why each version after `version` of a document was made, in order. */
export async function reasonsAfter(ex: Exec, documentId: string, version: number): Promise<string[]> {
  const found = await camelRows<{ reason: string }>(
    ex,
    sql`SELECT reason FROM document_versions WHERE document_id = ${documentId} AND version > ${version}
        ORDER BY version`,
  );
  return found.map((r) => r.reason);
}

/**
 * A revised document (issue 29): the flow's launcher replaced the file before (or, withdrawing them, after)
 * its signatures. The pointer moves from the version read to the revised file, as launched anew: its pages,
 * no signatures counted, no B-LTA. One statement with the version row ('revise'). False when another writer
 * moved it first.
 */
export async function reviseToVersion(
  ex: Exec,
  from: Pick<DocumentRecord, 'id' | 'version'>,
  next: { key: string; sha: string; size: number; pages: number; pageSizes: unknown; now: Date },
): Promise<boolean> {
  const moved = await rows(
    ex,
    sql`WITH moved AS (
          UPDATE documents SET current_key = ${next.key}, current_sha256 = ${next.sha}, current_size = ${next.size},
            version = version + 1, signature_count = 0, is_ltv_done = false, launched_sha256 = ${next.sha},
            pages = ${next.pages}, page_sizes = ${JSON.stringify(next.pageSizes)}::jsonb
          WHERE id = ${from.id} AND version = ${from.version} AND flow_id IS NOT NULL RETURNING id, version)
        INSERT INTO document_versions (document_id, version, blob_key, sha256, size, reason, created_at)
        SELECT id, version, ${next.key}, ${next.sha}, ${next.size}, 'revise', ${ts(next.now)}
        FROM moved RETURNING document_id`,
  );
  return moved.length === 1;
}

/** The version a launch made of a document (its footer-stamped file), or undefined. */
export async function launchVersionOf(
  ex: Exec,
  documentId: string,
): Promise<{ blobKey: string; sha256: string; size: number; createdAt: unknown } | undefined> {
  return camelOne(
    ex,
    sql`SELECT blob_key, sha256, size, created_at FROM document_versions
        WHERE document_id = ${documentId} AND reason = 'launch' ORDER BY version LIMIT 1`,
  );
}
