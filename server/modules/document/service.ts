import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { DOCUMENT_DOWNLOAD_PATH, type DocumentInfo, type PageSize } from '#contract/calls/document.ts';
import { Code } from '#contract/codes.ts';
import { UserType } from '#contract/enums.ts';
import { blobKeyOf } from '../../storage/blob-store.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { requireCompanyRole } from '../company/index.ts';
import { type Exec, dateOf, jsonOf, one, ts } from '../../db/sql-helpers.ts';
// Deep import on purpose until the flow/document cycle is broken: the texts are used at module load.
import { F } from '../flow/texts.ts';
import type { LiveSession } from '../session/index.ts';
import { PdfRejected, inspectPdf } from './pdf-tools.ts';

/** The account that owns documents and launches flows: a person (0, user id) or a company (1, company id). */
export type Account = { ownerType: 0 | 1; ownerId: string };

export type DocumentRow = {
  id: string;
  owner_type: number;
  owner_id: string;
  uploaded_by: string;
  name: string;
  original_key: string;
  original_sha256: string;
  pages: number;
  page_sizes: unknown;
  current_key: string;
  current_sha256: string;
  current_size: number;
  version: number;
  signature_count: number;
  flow_id: string | null;
  launched_sha256: string | null;
  verification_code: string | null;
  is_ltv_done: boolean;
  created_at: unknown;
  deleted_at: unknown;
};

/**
 * The account a session acts for: a person session its user; a company session its company, after checking
 * that the caller is an active administrator or operator of it now (the company comes from the session,
 * never from a request body).
 */
export async function accountOf(
  deps: AppDeps,
  session: LiveSession,
): Promise<Account & { companyName: string | null }> {
  if (session.userType === UserType.Company) {
    const access = await requireCompanyRole(deps, session, ['admin', 'operator']);
    return { ownerType: 1, ownerId: access.companyId, companyName: access.companyName };
  }
  return { ownerType: 0, ownerId: session.userId, companyName: null };
}

export const pageSizesOf = (row: DocumentRow) => jsonOf<PageSize[]>(row.page_sizes);

/** What the contract shows of a document. */
export function presentDocument(row: DocumentRow, flowStatus?: string | null): DocumentInfo {
  let status: DocumentInfo['status'] = 'uploaded';
  if (row.flow_id) {
    if (flowStatus === 'completed') status = 'completed';
    else if (flowStatus && flowStatus !== 'signing' && flowStatus !== 'draft') status = 'closed';
    else status = row.signature_count > 0 ? 'signing' : 'launched';
  }
  return {
    documentId: row.id,
    name: row.name,
    pages: row.pages,
    size: row.current_size,
    sha256: row.current_sha256,
    originalSha256: row.original_sha256,
    pageSizes: pageSizesOf(row),
    status,
    verificationCode: row.verification_code,
    flowId: row.flow_id,
    signatureCount: row.signature_count,
    downloadUrl: `${DOCUMENT_DOWNLOAD_PATH}/${row.id}`,
    createdAt: dateOf(row.created_at).toISOString(),
  };
}

const REJECTION = {
  notPdf: F.notPdf,
  encrypted: F.encrypted,
  passwordRequired: F.passwordRequired,
  notPermitted: F.notPermitted,
  broken: F.broken,
  empty: F.empty,
} as const;

/** Stores an uploaded PDF for the caller's account after parsing it; refuses what cannot be signed later. */
export async function uploadDocument(
  deps: AppDeps,
  session: LiveSession,
  file: { bytes: Uint8Array; filename: string },
): Promise<DocumentInfo> {
  const account = await accountOf(deps, session);
  let parsed: Awaited<ReturnType<typeof inspectPdf>>;
  try {
    parsed = await inspectPdf(file.bytes);
  } catch (err) {
    if (err instanceof PdfRejected) throw new AppError(Code.DocumentRejected, REJECTION[err.problem]);
    throw err;
  }
  const key = await deps.storage.put(file.bytes);
  const sha = blobKeyOf(file.bytes);
  const id = randomUUID();
  const now = deps.clock.now();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters in a file name are the point
  const name = (file.filename || 'document.pdf').replace(/[\\/\u0000-\u001f]/g, '_').slice(0, 200);
  await deps.db.execute(sql`
    INSERT INTO documents (id, owner_type, owner_id, uploaded_by, name, original_key, original_sha256, pages,
      page_sizes, current_key, current_sha256, current_size, created_at)
    VALUES (${id}, ${account.ownerType}, ${account.ownerId}, ${session.userId}, ${name}, ${key}, ${sha},
      ${parsed.pages}, ${JSON.stringify(parsed.pageSizes)}::jsonb, ${key}, ${sha}, ${file.bytes.length}, ${ts(now)})`);
  await deps.db.execute(sql`
    INSERT INTO document_versions (document_id, version, blob_key, sha256, size, reason, created_at)
    VALUES (${id}, 0, ${key}, ${sha}, ${file.bytes.length}, 'upload', ${ts(now)})`);
  const row = await findDocument(deps.db, id);
  return presentDocument(row!);
}

export async function findDocument(ex: Exec, id: string): Promise<DocumentRow | undefined> {
  return one<DocumentRow>(ex, sql`SELECT * FROM documents WHERE id = ${id} AND deleted_at IS NULL`);
}

/** A document of the caller's account that is not launched yet (upload owner only); 1101 otherwise. */
export async function ownDocument(deps: AppDeps, account: Account, id: string): Promise<DocumentRow> {
  const row = await one<DocumentRow>(
    deps.db,
    sql`SELECT * FROM documents WHERE id = ${id} AND owner_type = ${account.ownerType}
        AND owner_id = ${account.ownerId} AND deleted_at IS NULL`,
  );
  if (!row) throw new AppError(Code.NotFound, F.documentNotFound);
  return row;
}

export async function deleteDocument(deps: AppDeps, session: LiveSession, id: string): Promise<void> {
  const account = await accountOf(deps, session);
  const row = await ownDocument(deps, account, id);
  if (row.flow_id) throw new AppError(Code.Refused, F.documentAlreadyLaunched);
  await deps.db.execute(
    sql`UPDATE documents SET deleted_at = ${ts(deps.clock.now())} WHERE id = ${id} AND flow_id IS NULL`,
  );
}

/** The bytes of a blob the database names; a missing blob is a server fault, not the caller's. */
export async function blobBytes(deps: AppDeps, key: string): Promise<Uint8Array> {
  const bytes = await deps.storage.get(key);
  if (!bytes) throw new Error(`blob ${key} named by a document is missing`);
  return bytes;
}
