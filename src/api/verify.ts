// Typed client of contract/calls/verify.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/verify.ts';
import type { CallRequest, CallResponse, CSIGN_PREFIX } from '#contract/envelope.ts';
import { downloadUrl } from './document.ts';
import { post } from './http.ts';

const CSIGN: typeof CSIGN_PREFIX = '/v1/account/api/csign';
// The GET routes of the contract (typed as its constants, so a rename there is a type error here).
const REPORT: typeof calls.VERIFY_REPORT_PATH = `${CSIGN}/downloadVerifyReport`;
const VERIFIED_PDF: typeof calls.VERIFIED_PDF_PATH = `${CSIGN}/downloadVerifiedPdf`;
const ROOT_CERT: typeof calls.ROOT_CERT_PATH = '/v1/pki/root.crt';

type Req<D> = Omit<CallRequest<D>, 'userType'> & { userType?: number };
type Res<D> = CallResponse<D>;

export type {
  PlatformDocument,
  SignatureCard,
  VerifyResult,
} from '#contract/calls/verify.ts';
export type VerifyByCodeAnswer = NonNullable<Res<typeof calls.verifyByCode>>;

/** How long a report stays downloadable (contract REPORT_TTL_MINUTES). */
export const REPORT_TTL_MINUTES = 60;

/** multipart: the PDF to verify (field `file`); `onProgress` gets 0..1 as the bytes go out. */
export const checkPdf = (file: File, onProgress?: (fraction: number) => void) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return post<Res<typeof calls.checkPdf>>(`${CSIGN}/checkPdf`, form, {
    headers: { 'Content-Type': 'multipart/form-data' },
    onUploadProgress: (e) => {
      if (onProgress && e.total) onProgress(Math.min(1, e.loaded / e.total));
    },
  });
};

export const verifyByCode = (body: Req<typeof calls.verifyByCode>) =>
  post<Res<typeof calls.verifyByCode>>(`${CSIGN}/verifyByCode`, body);

export const getVerifyReport = (body: Req<typeof calls.getVerifyReport>) =>
  post<Res<typeof calls.getVerifyReport>>(`${CSIGN}/getVerifyReport`, body);

export const reportUrl = (reportId: string, format: 'json' | 'pdf') =>
  downloadUrl(`${REPORT}/${encodeURIComponent(reportId)}.${format}`);
export const verifiedPdfUrl = (code: string) => downloadUrl(`${VERIFIED_PDF}/${encodeURIComponent(code)}`);
export const rootCertUrl = () => downloadUrl(ROOT_CERT);
