/** Typed failures of verifyPdf for input that cannot be verified at all. */
export const VerifyErrorCode = {
  Empty: 'EMPTY',
  NotPdf: 'NOT_PDF',
  TooLarge: 'TOO_LARGE',
  Encrypted: 'ENCRYPTED',
  Unreadable: 'UNREADABLE',
  Timeout: 'TIMEOUT',
} as const;
export type VerifyErrorCode = (typeof VerifyErrorCode)[keyof typeof VerifyErrorCode];

const MESSAGES: Record<VerifyErrorCode, string> = {
  EMPTY: 'The file is empty.',
  NOT_PDF: 'The file is not a PDF document.',
  TOO_LARGE: 'The file is larger than the size limit.',
  ENCRYPTED:
    'The PDF is encrypted with a password (or a method) it cannot be opened without; it cannot be verified.',
  UNREADABLE: 'The PDF structure cannot be read.',
  TIMEOUT: 'Verification took longer than the time limit.',
};

export class VerifyError extends Error {
  override name = 'VerifyError';
  readonly code: VerifyErrorCode;
  constructor(code: VerifyErrorCode, detail?: string) {
    super(detail ? `${MESSAGES[code]} (${detail})` : MESSAGES[code]);
    this.code = code;
  }
}
