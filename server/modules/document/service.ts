import type { Actor } from '../../lib/actor.ts';
import type { Account } from '../../lib/account.ts';
import { randomUUID } from 'node:crypto';
import { DOCUMENT_DOWNLOAD_PATH, type DocumentInfo, type PageSize } from '#contract/calls/document.ts';
import { Code } from '#contract/codes.ts';
import { UserType } from '#contract/enums.ts';
import { blobKeyOf } from '../../storage/blob-store.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { HANDLING, type RequiredRole, requireCompanyRole } from '../company/index.ts';
import { dateOf, jsonOf } from '../../db/sql-helpers.ts';
import { PdfRejected, inspectPdf } from '../../pdf/compose/pdf-tools.ts';
import {
  type DocumentRecord,
  findDocument,
  findOwnedDocument,
  insertUpload,
  markDeleted,
} from './queries.ts';
import { D } from './texts.ts';

/**
 * The account a session acts for: a person session its user; a company session its company, after checking
 * that the caller is an active member of it now holding one of `roles` (any member by default; launching and
 * uploading for it ask HANDLING: the administrator or a handler). The company comes from the session, never
 * from a request body.
 */
export async function accountOf(
  deps: AppDeps,
  actor: Actor,
  roles: readonly RequiredRole[] = ['admin', 'operator'],
): Promise<Account & { companyName: string | null }> {
  if (actor.userType === UserType.Company) {
    const access = await requireCompanyRole(deps, actor, roles);
    return { ownerType: 1, ownerId: access.companyId, companyName: access.companyName };
  }
  return { ownerType: 0, ownerId: actor.userId, companyName: null };
}

export const pageSizesOf = (row: DocumentRecord) => jsonOf<PageSize[]>(row.pageSizes);

/** What the contract shows of a document. */
export function presentDocument(row: DocumentRecord, flowStatus?: string | null): DocumentInfo {
  let status: DocumentInfo['status'] = 'uploaded';
  if (row.flowId) {
    if (flowStatus === 'completed') status = 'completed';
    else if (flowStatus && flowStatus !== 'signing' && flowStatus !== 'draft') status = 'closed';
    else status = row.signatureCount > 0 ? 'signing' : 'launched';
  }
  return {
    documentId: row.id,
    name: row.name,
    pages: row.pages,
    size: row.currentSize,
    sha256: row.currentSha256,
    originalSha256: row.originalSha256,
    pageSizes: pageSizesOf(row),
    status,
    verificationCode: row.verificationCode,
    flowId: row.flowId,
    signatureCount: row.signatureCount,
    downloadUrl: `${DOCUMENT_DOWNLOAD_PATH}/${row.id}`,
    createdAt: dateOf(row.createdAt).toISOString(),
  };
}

const REJECTION = {
  notPdf: D.notPdf,
  encrypted: D.encrypted,
  passwordRequired: D.passwordRequired,
  notPermitted: D.notPermitted,
  broken: D.broken,
  empty: D.empty,
} as const;

/** A PDF core refusal as the answer a user gets (1320, the reason named in both languages); else null. */
export const pdfRefusal = (err: unknown): AppError | null =>
  err instanceof PdfRejected ? new AppError(Code.DocumentRejected, REJECTION[err.problem]) : null;

/** Stores an uploaded PDF for the caller's account after parsing it; refuses what cannot be signed later. */
export async function uploadDocument(
  deps: AppDeps,
  actor: Actor,
  file: { bytes: Uint8Array; filename: string },
): Promise<DocumentInfo> {
  // Uploading for a company is the first step of launching: the administrator or a handler.
  const account = await accountOf(deps, actor, HANDLING);
  let parsed: Awaited<ReturnType<typeof inspectPdf>>;
  try {
    parsed = await inspectPdf(file.bytes);
  } catch (err) {
    throw pdfRefusal(err) ?? err;
  }
  const key = await deps.storage.put(file.bytes);
  const sha = blobKeyOf(file.bytes);
  const id = randomUUID();
  const now = deps.clock.now();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters in a file name are the point
  const name = (file.filename || 'document.pdf').replace(/[\\/\u0000-\u001f]/g, '_').slice(0, 200);
  await insertUpload(deps.db, {
    id,
    account,
    uploadedBy: actor.userId,
    name,
    key,
    sha,
    pages: parsed.pages,
    pageSizes: parsed.pageSizes,
    size: file.bytes.length,
    now,
  });
  const row = await findDocument(deps.db, id);
  return presentDocument(row!);
}

/** A document of the caller's account that is not launched yet (upload owner only); 1101 otherwise. */
export async function ownDocument(deps: AppDeps, account: Account, id: string): Promise<DocumentRecord> {
  const row = await findOwnedDocument(deps.db, account, id);
  if (!row) throw new AppError(Code.NotFound, D.documentNotFound);
  return row;
}

export async function deleteDocument(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  const account = await accountOf(deps, actor);
  const row = await ownDocument(deps, account, id);
  if (row.flowId) throw new AppError(Code.Refused, D.documentAlreadyLaunched);
  await markDeleted(deps.db, id, deps.clock.now());
}

/** The bytes of a blob the database names; a missing blob is a server fault, not the caller's. */
export async function blobBytes(deps: AppDeps, key: string): Promise<Uint8Array> {
  const bytes = await deps.storage.get(key);
  if (!bytes) throw new Error(`blob ${key} named by a document is missing`);
  return bytes;
}
