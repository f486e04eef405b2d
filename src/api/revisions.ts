// Typed client of contract/calls/revisions.ts (types only from the contract: no zod in the bundle). The signing
// room imports this, so nothing here may pull zod or antd.
import type * as calls from '#contract/calls/revisions.ts';
import * as P from '#contract/paths/revisions.ts';
import { call } from './http.ts';
import { downloadAt, downloadUrl, upload } from './transfer.ts';

export type { DiffLine, FlowRevision, PageDiff } from '#contract/calls/revisions.ts';

export { REVISION_NOTE_MAX } from '#contract/rules/revisions.ts';

export const listFlowRevisions = call<typeof calls.listFlowRevisions>(P.listFlowRevisions);

export const compareFlowRevisions = call<typeof calls.compareFlowRevisions>(P.compareFlowRevisions);

/** Uploads a revised PDF for a document of the flow (text fields first, then the part `file`). */
export const reviseFlowDocument = (
  input: {
    userType?: number;
    flowId: string;
    documentId: string;
    note?: string;
    withdrawSignatures?: boolean;
  },
  file: File,
  onProgress?: (fraction: number) => void,
) => {
  const form = new FormData();
  if (input.userType !== undefined) form.append('userType', String(input.userType));
  form.append('flowId', input.flowId);
  form.append('documentId', input.documentId);
  if (input.note) form.append('note', input.note);
  if (input.withdrawSignatures) form.append('withdrawSignatures', 'true');
  form.append('file', file, file.name);
  return upload<typeof calls.reviseFlowDocument>(P.reviseFlowDocument, form, onProgress);
};

/** The link of a revision's PDF the server listed (its `downloadUrl`), with the room token inside a room. */
export const revisionHref = (downloadUrlPath: string, roomToken?: string) =>
  downloadUrl(downloadUrlPath, { roomToken });

/** GET URL of one revision's PDF: `${path}/<flowId>/<revision>/<documentId>`. */
export const flowRevisionUrl = (flowId: string, revision: number, documentId: string, roomToken?: string) =>
  downloadAt(P.downloadFlowRevision, [flowId, String(revision), documentId], { roomToken });
