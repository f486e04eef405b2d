// Typed client of contract/calls/document.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/document.ts';
import type { CallRequest, CallResponse, CSIGN_PREFIX } from '#contract/envelope.ts';
import { apiBaseUrl, readEnv } from '@/lib/env.ts';
import { post } from './http.ts';

const CSIGN: typeof CSIGN_PREFIX = '/v1/account/api/csign';
// The GET download routes of the contract (typed as its constants, so a rename there is a type error here).
const DOCUMENT_DOWNLOAD: typeof calls.DOCUMENT_DOWNLOAD_PATH = `${CSIGN}/downloadDocument`;
const SIGNED_PDF: typeof calls.SIGNED_PDF_PATH = `${CSIGN}/downloadSignedPdf`;
const AUDIT_REPORT: typeof calls.AUDIT_REPORT_PATH = `${CSIGN}/downloadAuditReport`;

type Req<D> = Omit<CallRequest<D>, 'userType'> & { userType?: number };
type Res<D> = CallResponse<D>;

export type { DocumentInfo, PageSize, VerificationInfo } from '#contract/calls/document.ts';
export type KeywordHit = Res<typeof calls.findDocumentKeyword>[number];

/** Points per millimetre (contract PT_PER_MM; document.ts holds zod, so the value is repeated and typed). */
export const PT_PER_MM = 72 / 25.4;
/** Largest drawn-signature PNG signDocument accepts (contract SIGNATURE_PNG_MAX_BYTES). */
export const SIGNATURE_PNG_MAX_BYTES = 512 * 1024;

/**
 * A GET download URL: absolute for the API host, with the transport rule's random `ts` (SPEC §7) and, inside a
 * link-login signing room, the room token (the room needs no cookie).
 */
export function downloadUrl(path: string, params: Record<string, string | undefined> = {}): string {
  const base = typeof window === 'undefined' ? '' : apiBaseUrl(window.location.hostname, readEnv());
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) query.set(k, v);
  query.set('ts', Math.random().toString(36).slice(2) + Date.now());
  return `${base}${path}${path.includes('?') ? '&' : '?'}${query.toString()}`;
}

export const documentUrl = (documentId: string, roomToken?: string, version?: 'original') =>
  downloadUrl(`${DOCUMENT_DOWNLOAD}/${encodeURIComponent(documentId)}`, { roomToken, version });
export const signedPdfUrl = (flowId: string, documentId: string, roomToken?: string) =>
  downloadUrl(`${SIGNED_PDF}/${encodeURIComponent(flowId)}/${encodeURIComponent(documentId)}`, { roomToken });
export const auditReportUrl = (flowId: string, roomToken?: string) =>
  downloadUrl(`${AUDIT_REPORT}/${encodeURIComponent(flowId)}`, { roomToken });

/** multipart: one PDF (field `file`); `onProgress` gets 0..1 as the bytes go out. */
export const uploadDocument = (file: File, onProgress?: (fraction: number) => void) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return post<Res<typeof calls.uploadDocument>>(`${CSIGN}/uploadDocument`, form, {
    headers: { 'Content-Type': 'multipart/form-data' },
    onUploadProgress: (e) => {
      if (onProgress && e.total) onProgress(Math.min(1, e.loaded / e.total));
    },
  });
};

export const getDocumentInfo = (body: Req<typeof calls.getDocumentInfo>) =>
  post<Res<typeof calls.getDocumentInfo>>(`${CSIGN}/getDocumentInfo`, body);

export const findDocumentKeyword = (body: Req<typeof calls.findDocumentKeyword>) =>
  post<Res<typeof calls.findDocumentKeyword>>(`${CSIGN}/findDocumentKeyword`, body);

export const deleteDocument = (body: Req<typeof calls.deleteDocument>) =>
  post<Res<typeof calls.deleteDocument>>(`${CSIGN}/deleteDocument`, body);

export const getVerificationInfo = (body: Req<typeof calls.getVerificationInfo>) =>
  post<Res<typeof calls.getVerificationInfo>>(`${CSIGN}/getVerificationInfo`, body);
