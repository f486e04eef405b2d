// Typed client of contract/calls/document.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/document.ts';
import * as P from '#contract/paths/document.ts';
import { call, type Res } from './http.ts';
import { downloadAt, upload } from './transfer.ts';

export type { DocumentInfo, PageSize, VerificationInfo } from '#contract/calls/document.ts';
export type KeywordHit = Res<typeof calls.findDocumentKeyword>[number];

export { PT_PER_MM, SIGNATURE_PNG_MAX_BYTES } from '#contract/rules/document.ts';

export const documentUrl = (documentId: string, roomToken?: string, version?: 'original') =>
  downloadAt(P.downloadDocument, [documentId], { roomToken, version });
export const signedPdfUrl = (flowId: string, documentId: string, roomToken?: string) =>
  downloadAt(P.downloadSignedPdf, [flowId, documentId], { roomToken });
export const auditReportUrl = (flowId: string, roomToken?: string) =>
  downloadAt(P.downloadAuditReport, [flowId], { roomToken });

/** One PDF (field `file`); `onProgress` gets 0..1 as the bytes go out. */
export const uploadDocument = (file: File, onProgress?: (fraction: number) => void) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return upload<typeof calls.uploadDocument>(P.uploadDocument, form, onProgress);
};

export const getDocumentInfo = call<typeof calls.getDocumentInfo>(P.getDocumentInfo);

export const findDocumentKeyword = call<typeof calls.findDocumentKeyword>(P.findDocumentKeyword);

export const deleteDocument = call<typeof calls.deleteDocument>(P.deleteDocument);

export const getVerificationInfo = call<typeof calls.getVerificationInfo>(P.getVerificationInfo);
