// Typed client of contract/calls/verify.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/verify.ts';
import * as P from '#contract/paths/verify.ts';
import { call, type Res } from './http.ts';
import { downloadAt, downloadUrl, upload } from './transfer.ts';

export type {
  PlatformDocument,
  SignatureCard,
  VerifyResult,
} from '#contract/calls/verify.ts';
export type VerifyByCodeAnswer = NonNullable<Res<typeof calls.verifyByCode>>;

/** How long a report stays downloadable (contract REPORT_TTL_MINUTES). */
export const REPORT_TTL_MINUTES = 60;

/** The PDF to verify (field `file`); `onProgress` gets 0..1 as the bytes go out. */
export const checkPdf = (file: File, onProgress?: (fraction: number) => void) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return upload<typeof calls.checkPdf>(P.checkPdf, form, onProgress);
};

export const verifyByCode = call<typeof calls.verifyByCode>(P.verifyByCode);

export const getVerifyReport = call<typeof calls.getVerifyReport>(P.getVerifyReport);

export const reportUrl = (reportId: string, format: 'json' | 'pdf') =>
  downloadAt(P.downloadVerifyReport, [`${reportId}.${format}`]);
export const verifiedPdfUrl = (code: string) => downloadAt(P.downloadVerifiedPdf, [code]);
export const rootCertUrl = () => downloadUrl(P.ROOT_CERT_PATH);
