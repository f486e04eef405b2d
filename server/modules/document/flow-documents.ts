import type { Exec } from '../../db/sql-helpers.ts';
import * as q from './queries.ts';

// What the flow cluster (flow, template, verify, audit) may do with documents: read them, and, inside the
// caller's transaction, take one into a flow and append the versions signing makes. The documents tables
// are this module's; no other module writes them.

/** A document as other modules see it (its current version, its flow once launched). */
export type Document = q.DocumentRecord;

/** The document with this id (any account's: the caller scopes it), or undefined. */
export const findDocument = (ex: Exec, id: string) => q.findDocument(ex, id);

/** The documents of a flow, in their launch order. */
export const flowDocuments = (ex: Exec, flowId: string) => q.flowDocuments(ex, flowId);

/** The document names of each of these flows. */
export const documentNamesOf = (ex: Exec, flowIds: string[]) => q.documentNamesOf(ex, flowIds);

/** The launched documents whose current version is the file with this SHA-256 (issue 29: verification). */
export const launchedBySha256 = (ex: Exec, sha256: string) => q.launchedBySha256(ex, sha256);

/** The launched document a verification code names, or undefined. */
export const findByVerificationCode = (ex: Exec, code: string) => q.findByVerificationCode(ex, code);

/**
 * Holds the document for the rest of the caller's transaction, so that the writes made under it (the audit
 * chain's next entry of that document) happen one at a time.
 */
export const lockDocument = (ex: Exec, id: string) => q.lockDocument(ex, id);

/**
 * Launch, in the caller's transaction: takes a not-yet-launched document (at the version the caller read)
 * into a flow with its stamped version and verification code, and records that version. False when another
 * launch took it meanwhile.
 */
export const attachToFlow = (
  tx: Exec,
  from: Pick<Document, 'id' | 'version'>,
  to: { flowId: string; key: string; sha: string; size: number; code: string; now: Date },
) => q.attachToFlow(tx, from, to);

/**
 * Signing, in the caller's transaction: appends the next version of a launched document (a signature, or the
 * long-term validation data) and makes it current. False when another writer appended first.
 */
export const appendVersion = (
  tx: Exec,
  from: Pick<Document, 'id' | 'version'>,
  next: { key: string; sha: string; size: number; reason: 'sign' | 'ltv'; partyId: string | null; now: Date },
) => q.moveToVersion(tx, from, next);

/**
 * Why each version after `version` was made ('sign', 'ltv', …), in order: a seal approval bound to `version`
 * still matches while every later version is only a signature.
 */
export const versionReasonsAfter = (ex: Exec, documentId: string, version: number) =>
  q.reasonsAfter(ex, documentId, version);

/**
 * A revised document (issue 29), in the caller's transaction: the launcher's revised file becomes current
 * (pages, page sizes, no signature counted, version reason 'revise'). False when another writer moved it first.
 */
export const reviseVersion = (
  tx: Exec,
  from: Pick<Document, 'id' | 'version'>,
  next: { key: string; sha: string; size: number; pages: number; pageSizes: unknown; now: Date },
) => q.reviseToVersion(tx, from, next);

/** The launch's version of a document (the footer-stamped file revision 1 is). */
export const launchVersionOf = (ex: Exec, documentId: string) => q.launchVersionOf(ex, documentId);
