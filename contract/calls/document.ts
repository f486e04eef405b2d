import { z } from 'zod';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/document.ts';
import { bi } from '../bilingual.ts';

// Documents: PDFs uploaded before a launch, stored as content-addressed blobs. A document belongs to the
// account that uploaded it (person, or the company of a company session) until it is launched; after that
// every participant of its flow may read it. Page images are rendered by the client with pdf.js from the
// GET download below (pages load lazily); the server gives page sizes so positions can be laid out.

/** GET `${DOCUMENT_DOWNLOAD_PATH}/<documentId>[?version=original][&roomToken=...]`: the PDF (current version). */
export const DOCUMENT_DOWNLOAD_PATH = P.downloadDocument.path;
/** GET `${SIGNED_PDF_PATH}/<flowId>/<documentId>[?roomToken=...]`: the signed PDF once the flow is completed. */
export const SIGNED_PDF_PATH = P.downloadSignedPdf.path;
/** GET `${AUDIT_REPORT_PATH}/<flowId>[?roomToken=...]`: the audit report (certificate of completion), platform-signed PDF. */
export const AUDIT_REPORT_PATH = P.downloadAuditReport.path;
export { PT_PER_MM, SIGNATURE_PNG_MAX_BYTES } from '../rules/document.ts';

export const zPageSize = z.object({
  /** Width of the page's MediaBox in PDF points (1/72 inch). */
  widthPt: z.number(),
  heightPt: z.number(),
  /** /Rotate of the page (0, 90, 180, 270); positions are always in the unrotated page space. */
  rotate: z.number().int(),
});
export type PageSize = z.infer<typeof zPageSize>;

export const zDocumentStatus = z.enum(['uploaded', 'launched', 'signing', 'completed', 'closed']);

export const zDocumentInfo = z.object({
  documentId: z.string(),
  /** The file name as uploaded. */
  name: z.string(),
  pages: z.number().int().describe('number of pages'),
  /** Bytes of the current version. */
  size: z.number().int(),
  /** SHA-256 (hex) of the current version: changes at launch (footer added) and with every signature. */
  sha256: z.string(),
  /** SHA-256 of the file as uploaded. */
  originalSha256: z.string(),
  pageSizes: z.array(zPageSize).describe('one entry per page, in order'),
  status: zDocumentStatus,
  /** Verification code printed in the footer at launch (null before launch). */
  verificationCode: z.string().nullable(),
  /** The flow the document was launched in (null before launch). */
  flowId: z.string().nullable(),
  /** Number of signatures (incremental updates by parties) so far. */
  signatureCount: z.number().int(),
  /** GET URL of the PDF (append `?roomToken=` inside a link-login signing room). */
  downloadUrl: z.string(),
  createdAt: z.string(),
});
export type DocumentInfo = z.infer<typeof zDocumentInfo>;

export const uploadDocument = defineCall({
  call: P.uploadDocument,
  auth: true,
  summary:
    'multipart/form-data: upload one PDF (field `file`, at most UPLOAD_LIMIT_MB, default 50 MB) plus `userType`. ' +
    'It is parsed on arrival; a non-PDF, encrypted, damaged, empty or over-large file is refused with code 1320 and ' +
    'a message naming the reason. Belongs to the uploading account (person, or the session company).',
  request: zBase,
  response: zDocumentInfo,
});

const zDocumentAccess = zBase.extend({
  documentId: z.string().uuid(bi('not a valid id', '不是有效的 ID')),
  /** Inside a link-login signing room: the room token instead of a session. */
  roomToken: z.string().max(100).optional(),
});

export const getDocumentInfo = defineCall({
  call: P.getDocumentInfo,
  auth: false,
  summary:
    'Page count, page sizes, hashes and download URL of a document, for its uploader account or any participant of ' +
    'its flow (session, or roomToken of a signing room); others get 1101 NotFound.',
  request: zDocumentAccess,
  response: zDocumentInfo,
});

export const zKeywordHit = z.object({
  /** 1-based page number. */
  page: z.number().int(),
  /** Box of the matched text in PDF points, origin bottom-left: [x1, y1, x2, y2]. */
  rect: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  /** A little of the text before and after the hit on its line, to tell the matches apart. */
  before: z.string(),
  after: z.string(),
  /**
   * The match a keyword position takes when it names no occurrence (one hit of the answer): the first followed
   * by sealing or signing wording (签章/盖章/签字, "(Seal)", "Signature"), else the first at a signature line.
   */
  isPreferred: z.boolean(),
});
export type KeywordHit = z.infer<typeof zKeywordHit>;

export const findDocumentKeyword = defineCall({
  call: P.findDocumentKeyword,
  auth: true,
  summary:
    "Where a keyword occurs in the document's text (to place a seal by keyword): every hit with its page, box and " +
    'the text around it, in reading order, the one a keyword position takes by default marked. Uploader account only.',
  request: zBase.extend({ documentId: z.string().uuid(), keyword: z.string().trim().min(1).max(50) }),
  response: z.array(zKeywordHit),
});

export const deleteDocument = defineCall({
  call: P.deleteDocument,
  auth: true,
  summary: 'Forget an uploaded document that was never launched (uploader account only).',
  request: zBase.extend({ documentId: z.string().uuid() }),
  response: z.null(),
});

export const zVerificationInfo = z.object({
  verificationCode: z.string(),
  documentName: z.string(),
  flowTitle: z.string(),
  /** Flow status (see FlowStatus in flow.ts). */
  flowStatus: z.string(),
  pages: z.number().int(),
  /** SHA-256 of the document at launch (with the footer, before any signature). */
  launchedSha256: z.string(),
  /** SHA-256 of the latest version: compare with a file in hand. */
  currentSha256: z.string(),
  launchedAt: z.string(),
  completedAt: z.string().nullable(),
  signatures: z.array(
    z.object({
      /** Person's name, or the company name for a company party. */
      signerName: z.string(),
      /** The company for a company party, else null. */
      companyName: z.string().nullable(),
      signedAt: z.string(),
      /** SHA-256 of the version this signature produced. */
      sha256: z.string(),
    }),
  ),
  /** Whether the audit hash chain of this document is intact. */
  isAuditChainIntact: z.boolean(),
});
export type VerificationInfo = z.infer<typeof zVerificationInfo>;

export const getVerificationInfo = defineCall({
  call: P.getVerificationInfo,
  auth: false,
  summary:
    'Public: what the verification code in a document footer (or its QR, /#/verify/<code>) names — the document, ' +
    'its flow status, hashes and who signed when. Null for an unknown code.',
  request: zBase.extend({ code: z.string().trim().min(4).max(40) }),
  response: zVerificationInfo.nullable(),
});

export const documentCalls = [
  uploadDocument,
  getDocumentInfo,
  findDocumentKeyword,
  deleteDocument,
  getVerificationInfo,
] as const;
