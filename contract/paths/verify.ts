// The paths of contract/calls/verify.ts (zod-free: src/api/verify.ts imports them).
import { csign } from '../call-path.ts';

export const checkPdf = /* @__PURE__ */ csign('checkPdf', 'upload');
export const verifyByCode = /* @__PURE__ */ csign('verifyByCode');
export const getVerifyReport = /* @__PURE__ */ csign('getVerifyReport');

// GET downloads (verify/routes.ts): `${path}/<reportId>.json|.pdf`, `${path}/<verificationCode>`.
export const downloadVerifyReport = /* @__PURE__ */ csign('downloadVerifyReport', 'download');
export const downloadVerifiedPdf = /* @__PURE__ */ csign('downloadVerifiedPdf', 'download');
/** GET the platform root certificate (PEM) that relying parties trust (not a call: no prefix, no name). */
export const ROOT_CERT_PATH = '/v1/pki/root.crt';
