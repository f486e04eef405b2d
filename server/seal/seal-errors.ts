/**
 * Refusals of the seal engine. Each carries a stable code that the module layer maps to a contract code
 * (all of them are "the request was refused": `Code.Refused`), and the message in both languages.
 */

export const SealErrorCode = {
  NameEmpty: 'SEAL_NAME_EMPTY',
  NameInvalidChar: 'SEAL_NAME_INVALID_CHAR',
  NameTooLong: 'SEAL_NAME_TOO_LONG',
  NameTooShort: 'SEAL_NAME_TOO_SHORT',
  SealTypeUnknown: 'SEAL_TYPE_UNKNOWN',
  PurposeMissing: 'SEAL_PURPOSE_MISSING',
  PurposeTooLong: 'SEAL_PURPOSE_TOO_LONG',
  TaxpayerNumberInvalid: 'SEAL_TAXPAYER_NUMBER_INVALID',
  AntiCounterfeitInvalid: 'SEAL_ANTI_COUNTERFEIT_INVALID',
  UploadEmpty: 'SEAL_UPLOAD_EMPTY',
  UploadTooLarge: 'SEAL_UPLOAD_TOO_LARGE',
  UploadSvg: 'SEAL_UPLOAD_SVG',
  UploadNotImage: 'SEAL_UPLOAD_NOT_IMAGE',
  UploadTooManyPixels: 'SEAL_UPLOAD_TOO_MANY_PIXELS',
  UploadCorrupt: 'SEAL_UPLOAD_CORRUPT',
  UploadNoInk: 'SEAL_UPLOAD_NO_INK',
  UploadBackground: 'SEAL_UPLOAD_BACKGROUND',
} as const;
export type SealErrorCode = (typeof SealErrorCode)[keyof typeof SealErrorCode];

interface BilingualText {
  zh: string;
  en: string;
}

/** A refusal of a seal definition or of an uploaded image; `message` is the English text. */
export class SealError extends Error {
  readonly code: SealErrorCode;
  readonly text: BilingualText;

  constructor(code: SealErrorCode, text: BilingualText) {
    super(text.en);
    this.name = 'SealError';
    this.code = code;
    this.text = text;
  }
}

/** True when `e` is a refusal of the seal engine (as opposed to an unexpected failure). */
export function isSealError(e: unknown): e is SealError {
  return e instanceof SealError;
}
