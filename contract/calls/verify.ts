import { z } from 'zod';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/verify.ts';
import { bi } from '../bilingual.ts';
import { zRescissionNote } from './rescission.ts';

/**
 * Signature verification (SPEC §2 /check, /verify, /fileVerification, /pcSignVerify, /signVerify).
 *
 * Every value a page shows as words travels as a machine value (an indication, a status, a reason code);
 * the client translates it. English sentences from the verifier (`details`) are technical extras.
 */

/**
 * GET `${VERIFY_REPORT_PATH}/<reportId>.json|.pdf`: a verification report as JSON or as a PDF (both
 * languages). Reports are kept for REPORT_TTL_MINUTES after the verification, then forgotten; the id is an
 * unguessable random UUID, so only who verified (or whom they gave the link) can fetch it.
 */
export const VERIFY_REPORT_PATH = P.downloadVerifyReport.path;
/**
 * GET `${VERIFIED_PDF_PATH}/<verificationCode>`: the current signed version of a platform document, for the
 * verification page opened from its footer QR code. The 80-bit verification code printed on every page is
 * the capability: whoever holds the paper (or the file) may see the platform's copy to compare.
 */
export const VERIFIED_PDF_PATH = P.downloadVerifiedPdf.path;
export { ROOT_CERT_PATH } from '../paths/verify.ts';
/** How long a verification report stays downloadable. */
export const REPORT_TTL_MINUTES = 60;

export const Indication = ['TOTAL_PASSED', 'TOTAL_FAILED', 'INDETERMINATE', 'NO_SIGNATURE_FOUND'] as const;
/** Adobe-like words for one signature, worst first: what the status icon and its words say. */
export const SignatureStatus = [
  'invalid',
  'modified',
  'revoked',
  'unknownIdentity',
  'indeterminate',
  'valid',
] as const;
/** Overall: a signature status, or `unsigned` for a file without signatures. */
export const OverallStatus = [...SignatureStatus, 'unsigned'] as const;
export const Coverage = ['ENTIRE_FILE', 'ENTIRE_REVISION', 'PARTIAL', 'BROKEN'] as const;
/** What changed after signing; `unknown` when the signed bytes themselves no longer match (nothing can be told). */
export const Modification = ['none', 'allowed', 'disallowed', 'unknown'] as const;
export const SignatureKind = ['approval', 'certification', 'doc_timestamp'] as const;
export const Revocation = ['good', 'revoked', 'unknown'] as const;
/**
 * Why a signature is not simply valid, one machine code per finding (the client has words for each):
 * HASH_MISMATCH the signed bytes changed; SIGNATURE_INVALID the signature value does not verify;
 * COVERAGE_BROKEN the byte range is malformed; COVERAGE_PARTIAL part of the file is not signed;
 * MODIFIED_DISALLOWED content changed after signing; MODIFIED_ALLOWED only permitted changes followed;
 * UNTRUSTED the chain ends at no trusted root; NO_CHAIN no certificate chain could be built; REVOKED;
 * REVOCATION_UNKNOWN no revocation data; CERT_EXPIRED / CERT_NOT_YET_VALID at the validation time;
 * TIMESTAMP_INVALID the time-stamp does not verify; FORMAT_FAILURE the signature structure is wrong;
 * NO_SIGNING_CERTIFICATE the signer's certificate is missing; WEAK_ALGORITHM.
 */
export const Reason = [
  'HASH_MISMATCH',
  'SIGNATURE_INVALID',
  'COVERAGE_BROKEN',
  'COVERAGE_PARTIAL',
  'MODIFIED_DISALLOWED',
  'MODIFIED_ALLOWED',
  'UNTRUSTED',
  'NO_CHAIN',
  'REVOKED',
  'REVOCATION_UNKNOWN',
  'CERT_EXPIRED',
  'CERT_NOT_YET_VALID',
  'TIMESTAMP_INVALID',
  'FORMAT_FAILURE',
  'NO_SIGNING_CERTIFICATE',
  'WEAK_ALGORITHM',
] as const;
/** Where the trusted root of a chain comes from. */
export const TrustSource = ['platform', 'anchor'] as const;

const zCertificate = z.object({
  subject: z.string(),
  issuer: z.string(),
  serial: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
});

/** A signature's visible widget: 1-based page and [x1, y1, x2, y2] in points from the page box's lower left. */
export const zWidget = z.object({ page: z.number().int().min(1), rect: z.array(z.number()).length(4) });

/**
 * What a changed region shows other than what was signed: `content` the page's own drawing; `covered` a form
 * field (or other annotation) now covers what was signed; `annotations` annotations or fields changed; `size`
 * the page's size or rotation changed.
 */
export const ChangedRegionKind = ['content', 'covered', 'annotations', 'size'] as const;

/**
 * A region of a page that shows something other than what was signed: 1-based page and [x0, y0, x1, y1] in
 * points from the page box's lower left (as `zWidget`).
 */
export const zChangedRegion = z.object({
  page: z.number().int().min(1),
  rect: z.array(z.number()).length(4),
  what: z.enum(ChangedRegionKind),
});
export type ChangedRegion = z.infer<typeof zChangedRegion>;

/** A form field value a signature filled (and so signed). */
export const zFilledField = z.object({
  name: z.string(),
  label: z.string(),
  value: z.string(),
  /** a checkbox: `value` is its state (Yes when ticked, Off when not) */
  checkbox: z.boolean(),
});
export type FilledField = z.infer<typeof zFilledField>;

export const zSignatureCard = z.object({
  /** Signing order, from 1. */
  index: z.number().int(),
  field: z.string(),
  kind: z.enum(SignatureKind),
  status: z.enum(SignatureStatus),
  signer: z
    .object({
      name: z.string().nullable(),
      organisation: z.string().nullable(),
      serial: z.string().nullable(),
    })
    .nullable(),
  /** Claimed signing time (not proven), ISO 8601. */
  signedAt: z.string().nullable(),
  timestamp: z.object({ time: z.string(), authority: z.string().nullable(), valid: z.boolean() }).nullable(),
  intact: z.boolean().nullable(),
  cryptoValid: z.boolean().nullable(),
  coverage: z.enum(Coverage),
  modifiedAfterSigning: z.enum(Modification),
  /** Whether the chain leads to a trusted root; null when the signed bytes no longer match (not assessed). */
  trusted: z.boolean().nullable(),
  trustSource: z.enum(TrustSource).nullable(),
  revocation: z.enum(Revocation),
  /** When `revocation` is 'revoked': the revocation time, ISO 8601 (a signature time-stamped before it stays valid). */
  revokedAt: z.string().nullable().optional(),
  indication: z.enum(Indication),
  subIndication: z.string().nullable(),
  /** The indication with trust set aside (an unknown root counts as passed). */
  trustAside: z.object({ indication: z.enum(Indication), subIndication: z.string().nullable() }),
  docMdp: z.number().int().nullable(),
  subFilter: z.string().nullable(),
  /** The certificate chain, signer first, root last. */
  chain: z.array(zCertificate),
  reasons: z.array(z.enum(Reason)),
  /** The verifier's own findings and the changes it saw after signing (English, technical). */
  details: z.array(z.string()),
  changes: z.array(z.string()),
  /** What is odd but does not count against the signature (English, technical); empty in reports kept before. */
  warnings: z.array(z.string()).default([]),
  /** Empty for an invisible signature. */
  widgets: z.array(zWidget),
  /**
   * Where a page shows something other than what this signature signed (the verifier's visual comparison);
   * empty when nothing visible changed. Reports kept before this field existed read as empty.
   */
  changedRegions: z.array(zChangedRegion).default([]),
  /**
   * Form fields this signature filled (issue 28: the values its own revision set, which it signed): the label
   * a person reads, the value (a checkbox: `checked`). Reports kept before this field existed read as empty.
   */
  filledFields: z.array(zFilledField).default([]),
});
export type SignatureCard = z.infer<typeof zSignatureCard>;

export const zPageBox = z.object({ widthPt: z.number(), heightPt: z.number(), rotate: z.number().int() });

export const zVerifyResult = z.object({
  /** Id of the kept report (downloads, reload of the page) until `expiresAt`. */
  reportId: z.string(),
  expiresAt: z.string(),
  source: z.enum(['upload', 'platform']),
  file: z.object({
    name: z.string().nullable(),
    size: z.number().int(),
    sha256: z.string(),
    pages: z.array(zPageBox),
  }),
  /** When it was verified, and the time certificate validity was checked against. */
  verifiedAt: z.string(),
  status: z.enum(OverallStatus),
  verdict: z.enum(Indication),
  subIndication: z.string().nullable(),
  trustAside: z.object({ verdict: z.enum(Indication), subIndication: z.string().nullable() }),
  revisions: z.number().int(),
  signatures: z.array(zSignatureCard),
  /** The file is the signed PDF of a contract voided by agreement (issue 29): the rescission; else absent. */
  rescission: zRescissionNote.nullable().optional(),
});
export type VerifyResult = z.infer<typeof zVerifyResult>;

/** What the platform knows of a document opened by its verification code. */
export const zPlatformDocument = z.object({
  verificationCode: z.string(),
  documentName: z.string(),
  flowTitle: z.string(),
  flowStatus: z.string(),
  launchedAt: z.string(),
  completedAt: z.string().nullable(),
});
export type PlatformDocument = z.infer<typeof zPlatformDocument>;

/** The file field of checkPdf. Limit: VERIFY_MAX_MB (default UPLOAD_LIMIT_MB, 50). */
export const checkPdf = defineCall({
  call: P.checkPdf,
  auth: false,
  summary:
    'Public, multipart/form-data (userType + the PDF in field "file"): verify every signature of an uploaded PDF ' +
    '(integrity, coverage, changes after signing, chain to the platform root and configured anchors, time-stamps, ' +
    'revocation). Rate-limited per client address. Refusals: 1901 empty, 1902 not a PDF, 1903 over the size limit, ' +
    '1904 encrypted, 1905 unreadable, 1906 took too long.',
  request: zBase.extend({}),
  response: zVerifyResult,
});

export const verifyByCode = defineCall({
  call: P.verifyByCode,
  auth: false,
  summary:
    'Public: verify the current signed version of a platform document named by the verification code in its footer ' +
    '(or QR, /#/verify/<code>). Null for an unknown code.',
  request: zBase.extend({ code: z.string().trim().min(4).max(40) }),
  response: z.object({ document: zPlatformDocument, result: zVerifyResult }).nullable(),
});

export const getVerifyReport = defineCall({
  call: P.getVerifyReport,
  auth: false,
  summary: `Public: a kept verification report by id (kept ${REPORT_TTL_MINUTES} minutes). Null once expired or unknown.`,
  request: zBase.extend({ reportId: z.string().uuid(bi('not a valid report id', '不是有效的报告 ID')) }),
  response: z.object({ document: zPlatformDocument.nullable(), result: zVerifyResult }).nullable(),
});

export const verifyCalls = [checkPdf, verifyByCode, getVerifyReport] as const;
