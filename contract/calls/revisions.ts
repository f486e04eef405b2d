// Revised documents (issue 29): the launcher of an open flow uploads a revised PDF for one of its documents.
// Before any signature it simply becomes the current file; after one, only with `withdrawSignatures`: every
// signature so far is withdrawn (kept, marked), the parties go back to unsigned and are asked again. The file
// is checked like an upload, stamped like a launch, and the parties' positions and fields placed again. Each
// revision is kept (downloadable by the flow's readers) and two revisions can be compared page by page.
import { z } from 'zod';
import { bi } from '../bilingual.ts';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/revisions.ts';
import { REVISION_NOTE_MAX } from '../rules/revisions.ts';

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));

/** One document of one revision. */
export const zFlowRevision = z.object({
  revision: z.number().int(),
  documentId: z.string(),
  documentName: z.string(),
  sha256: z.string(),
  size: z.number().int(),
  pages: z.number().int(),
  /** Who uploaded it (revision 1: the launch). */
  createdByName: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
  /** GET URL of its PDF (append `?roomToken=` inside a link-login signing room). */
  downloadUrl: z.string(),
});
export type FlowRevision = z.infer<typeof zFlowRevision>;

export const reviseFlowDocument = defineCall({
  call: P.reviseFlowDocument,
  auth: true,
  summary:
    'multipart/form-data: fields flowId, documentId, note (what changed), withdrawSignatures ("true" to confirm) ' +
    'and file (the revised PDF). Only the launching account (its administrator or a handler) while the flow is ' +
    'open (1311 otherwise). The file is checked like an upload (1100 naming the problem); positions and fields ' +
    'are placed again (keywords found again; a fixed box on a page the file no longer has is 1100 naming the ' +
    'party). After a signature: 1100 with data.signedParties unless withdrawSignatures is "true"; then every ' +
    'signature is withdrawn and the parties asked again. Another account: 1101.',
  request: zBase.extend({
    flowId: zId,
    documentId: zId,
    note: z.string().trim().max(REVISION_NOTE_MAX).optional(),
    withdrawSignatures: z.enum(['true', 'false']).optional(),
  }),
  response: z.object({
    revision: z.number().int(),
    /** The parties whose signatures were withdrawn (names as the flow shows them). */
    withdrawn: z.array(z.string()),
  }),
});

export const listFlowRevisions = defineCall({
  call: P.listFlowRevisions,
  auth: false,
  summary:
    "A flow's revisions, newest first (revision 1 is the launched file), for the flow's readers: the launching " +
    'account, its parties, or a signing room (roomToken). 1101 for anyone else.',
  request: zBase.extend({ flowId: zId, roomToken: z.string().min(16).max(100).optional() }),
  response: z.object({
    currentRevision: z.number().int(),
    items: z.array(zFlowRevision),
  }),
});

/** One line of a page's comparison: kept, removed (only in the older) or added (only in the newer). */
export const zDiffLine = z.object({ op: z.enum(['same', 'removed', 'added']), text: z.string() });
export type DiffLine = z.infer<typeof zDiffLine>;

export const zPageDiff = z.object({
  page: z.number().int(),
  /** Whether each side has the page and text on it (a scanned page has none: nothing to compare). */
  olderText: z.enum(['text', 'none', 'missing']),
  newerText: z.enum(['text', 'none', 'missing']),
  lines: z.array(zDiffLine),
});
export type PageDiff = z.infer<typeof zPageDiff>;

export const compareFlowRevisions = defineCall({
  call: P.compareFlowRevisions,
  auth: false,
  summary:
    "Compares a document's text in two revisions, page by page: each page's lines as kept, removed or added " +
    "(a line diff of the text layer; a page without text says so). For the flow's readers (as listFlowRevisions).",
  request: zBase.extend({
    flowId: zId,
    documentId: zId,
    older: z.number().int().min(1),
    newer: z.number().int().min(1),
    roomToken: z.string().min(16).max(100).optional(),
  }),
  response: z.object({
    older: zFlowRevision,
    newer: zFlowRevision,
    pages: z.array(zPageDiff),
  }),
});

/** GET `${FLOW_REVISION_PATH}/<flowId>/<revision>/<documentId>[?roomToken=...]`: one revision's PDF. */
export const FLOW_REVISION_PATH = P.downloadFlowRevision.path;

export const revisionCalls = [reviseFlowDocument, listFlowRevisions, compareFlowRevisions] as const;
