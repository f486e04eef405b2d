/**
 * The verification report: the shape the CLI prints with --json, the web pages render and the
 * signing code checks. Indications follow ETSI EN 319 102-1.
 */

export const Indication = {
  TotalPassed: 'TOTAL_PASSED',
  TotalFailed: 'TOTAL_FAILED',
  Indeterminate: 'INDETERMINATE',
  NoSignatureFound: 'NO_SIGNATURE_FOUND',
} as const;
export type Indication = (typeof Indication)[keyof typeof Indication];

export const SubIndication = {
  FormatFailure: 'FORMAT_FAILURE',
  HashFailure: 'HASH_FAILURE',
  SigCryptoFailure: 'SIG_CRYPTO_FAILURE',
  Revoked: 'REVOKED',
  /** the signing certificate is revoked and nothing proves the signature existed before (EN 319 102-1 5.2.6) */
  RevokedNoPoe: 'REVOKED_NO_POE',
  NotYetValid: 'NOT_YET_VALID',
  NoSigningCertificateFound: 'NO_SIGNING_CERTIFICATE_FOUND',
  NoCertificateChainFound: 'NO_CERTIFICATE_CHAIN_FOUND',
  OutOfBoundsNoPoe: 'OUT_OF_BOUNDS_NO_POE',
  CryptoConstraintsFailureNoPoe: 'CRYPTO_CONSTRAINTS_FAILURE_NO_POE',
} as const;
export type SubIndication = (typeof SubIndication)[keyof typeof SubIndication];

export const Coverage = {
  EntireFile: 'ENTIRE_FILE',
  EntireRevision: 'ENTIRE_REVISION',
  Partial: 'PARTIAL',
  Broken: 'BROKEN',
} as const;
export type Coverage = (typeof Coverage)[keyof typeof Coverage];

export type Modification = 'none' | 'allowed' | 'disallowed';
export type SignatureKind = 'approval' | 'certification' | 'doc_timestamp';
type RevocationStatus = 'good' | 'revoked' | 'unknown';

export type CertificateInfo = {
  subject: string;
  issuer: string;
  serial: string;
  notBefore: string;
  notAfter: string;
};

type TimestampInfo = {
  /** time proven by the token (genTime), ISO 8601 */
  time: string;
  authority: string | null;
  /** messageImprint matches and the TSA signature verifies */
  valid: boolean;
};

export type SignatureReport = {
  field: string;
  kind: SignatureKind;
  signer: { name: string | null; organisation: string | null; serial: string | null } | null;
  /** claimed signing time (signed attribute, else /M), ISO 8601; not proven */
  signedAt: string | null;
  /** the signature time-stamp (for a document time-stamp: the token itself) */
  timestamp: TimestampInfo | null;
  intact: boolean | null;
  cryptoValid: boolean | null;
  coverage: Coverage;
  modifiedAfterSigning: Modification;
  trusted: boolean;
  revocation: RevocationStatus;
  /** when revocation is 'revoked': the revocation time, ISO 8601 (null when the source gives none) */
  revokedAt?: string | null;
  /** where the revocation answer came from: 'dss' (embedded data) or the hook's `source` */
  revocationSource?: string | null;
  indication: Indication;
  subIndication: SubIndication | null;
  /** the indication with trust set aside (untrusted or expired chains count as passed) */
  trustAside: { indication: Indication; subIndication: SubIndication | null };
  subFilter: string | null;
  byteRange: number[] | null;
  /** DocMDP permission level of a certification signature */
  docMdp: number | null;
  chain: CertificateInfo[];
  /** why the indication is what it is; one sentence per finding */
  problems: string[];
  /** the changes found in later revisions */
  modifications: string[];
  /**
   * What is odd but does not count against the signature: objects a writer left out of its
   * cross-reference section that change nothing a viewer reads, malformed data outside what the
   * signature covers (an unsigned attribute, a certificate that is not the signer's, a CRL)
   */
  warnings: string[];
  /**
   * Where a page shows something other than what was signed (the visual comparison): 1-based page, the
   * region in PDF points from the page's lower left, and what differs there.
   */
  changedRegions: ChangedRegion[];
  /**
   * Form fields whose values this signature's own revision set: the values it signed (issue 28). A later
   * change of one of them, or of a field its /Lock names, is a disallowed change ("field X changed after
   * signing").
   */
  filledFields: string[];
  /** the revision (from 1, as in `modifications` and `formFills`) whose end the signature covers, when it does */
  revision: number | null;
};

export type ChangedRegion = {
  page: number;
  rect: [number, number, number, number];
  /** page content; a form field covering what the page showed; annotations or fields; the page's size */
  what: 'content' | 'covered' | 'annotations' | 'size';
};

export type VerificationReport = {
  verdict: Indication;
  subIndication: SubIndication | null;
  /** verdict and sub-indication with trust set aside (the corpus rule) */
  trustAside: { verdict: Indication; subIndication: SubIndication | null };
  signatures: SignatureReport[];
  revisions: number;
  /** the time against which certificate validity was checked when no time-stamp proves one */
  validationTime: string;
  /** `/ByteRange` occurrences in the raw bytes, for diagnosis only (spoofed or orphaned signatures) */
  byteRangeMarkers: number;
  /**
   * The form fields each revision after the first filled (set, changed or emptied their /V), revisions
   * numbered from 1; a checkbox's value is its state name (Yes, Off). Revisions that filled none are left out.
   */
  formFills: FormFill[];
};

export type FormFill = {
  revision: number;
  /** qualified name; the label a person reads (the field's /TU, else its name); a checkbox's value is Yes or Off */
  fields: { name: string; label: string; value: string; checkbox: boolean }[];
};

/** A revocation answer from outside the file (an OCSP responder, the issuing CA's own records). */
export type RevocationAnswer = {
  status: RevocationStatus;
  revokedAt?: Date;
  reason?: string;
  /** names the answerer in the report, e.g. 'platform' or an OCSP URL */
  source: string;
};

/**
 * Asked about each signing certificate whose issuer is known, after the file's own data was read.
 * Answer 'unknown' for certificates it knows nothing about; a rejection or a late answer counts as
 * 'unknown'.
 */
export type RevocationHook = (
  cert: { der: Uint8Array; serialHex: string },
  issuer: { der: Uint8Array },
) => Promise<RevocationAnswer>;

export type VerifyOptions = {
  /** trust anchors as DER certificates */
  trustAnchors: Uint8Array[];
  now?: Date;
  timeLimitMs?: number;
  maxBytes?: number;
  /**
   * Revocation beyond the file's embedded data (DSS, adbe-revocationInfoArchival). Precedence: a
   * 'revoked' from either side wins (the earliest revocation time counts), since embedded data is a
   * snapshot from signing time and the issuer may learn of a compromise later; a 'good' from either
   * side answers when neither says 'revoked'; otherwise 'unknown'.
   *
   * What a revocation does to the signature depends on its time against the time a valid signature
   * time-stamp proves (EN 319 102-1: a revoked certificate only fails a signature without proof of
   * existence before the revocation):
   * - revoked after the time-stamp's time: the signature stays valid; the report still says
   *   `revocation: 'revoked'` with `revokedAt` and a note in `problems`;
   * - revoked at or before the time-stamp's time (or at an unknown time): TOTAL_FAILED / REVOKED;
   * - no valid time-stamp: INDETERMINATE / REVOKED_NO_POE, since nothing proves when the signature was
   *   made (EN 319 102-1 5.2.6 and 5.3.4: only a proof of existence after the revocation makes it
   *   TOTAL_FAILED / REVOKED);
   * - a revocation dated after the validation time (`now`) is not yet in force: 'good'.
   */
  revocation?: RevocationHook;
  /** how long the hook may take per certificate (default 2000 ms, bounded by what is left of timeLimitMs) */
  revocationTimeoutMs?: number;
};
