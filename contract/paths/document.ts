// The paths of contract/calls/document.ts (zod-free: src/api/document.ts imports them).
import { csign } from '../call-path.ts';

export const uploadDocument = /* @__PURE__ */ csign('uploadDocument', 'upload');
export const getDocumentInfo = /* @__PURE__ */ csign('getDocumentInfo');
export const findDocumentKeyword = /* @__PURE__ */ csign('findDocumentKeyword');
export const deleteDocument = /* @__PURE__ */ csign('deleteDocument');
export const getVerificationInfo = /* @__PURE__ */ csign('getVerificationInfo');

// GET downloads (document/routes.ts): `${path}/<documentId>`, `${path}/<flowId>/<documentId>`, `${path}/<flowId>`.
export const downloadDocument = /* @__PURE__ */ csign('downloadDocument', 'download');
export const downloadSignedPdf = /* @__PURE__ */ csign('downloadSignedPdf', 'download');
export const downloadAuditReport = /* @__PURE__ */ csign('downloadAuditReport', 'download');
