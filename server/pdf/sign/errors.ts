/** Why a PDF was not signed. Every code is a refusal of the input or the request, never a partial write. */
export const SignErrorCode = {
  NotPdf: 'NOT_PDF',
  Encrypted: 'ENCRYPTED',
  /** The cross-reference data is missing or wrong: an incremental update could not be appended safely. */
  BrokenXref: 'BROKEN_XREF',
  PageOutOfRange: 'PAGE_OUT_OF_RANGE',
  FieldAlreadySigned: 'FIELD_ALREADY_SIGNED',
  /** A field of that name exists and is not a signature field. */
  FieldNotSignature: 'FIELD_NOT_SIGNATURE',
  BadAppearance: 'BAD_APPEARANCE',
  BadOptions: 'BAD_OPTIONS',
  /** The CMS or time-stamp token came out larger than the space reserved for it, even after a retry. */
  ContentsTooLarge: 'CONTENTS_TOO_LARGE',
} as const;
export type SignErrorCode = (typeof SignErrorCode)[keyof typeof SignErrorCode];

const MESSAGES: Record<SignErrorCode, { zh: string; en: string }> = {
  NOT_PDF: { zh: '文件不是 PDF', en: 'The file is not a PDF' },
  ENCRYPTED: { zh: '加密的 PDF 不能签署', en: 'Encrypted PDFs cannot be signed' },
  BROKEN_XREF: {
    zh: 'PDF 交叉引用表损坏，无法以增量方式安全签署',
    en: 'The PDF cross-reference data is damaged; it cannot be signed incrementally without rewriting it',
  },
  PAGE_OUT_OF_RANGE: { zh: '页码超出文档范围', en: 'The page number is outside the document' },
  FIELD_ALREADY_SIGNED: { zh: '该签名域已被签署', en: 'That signature field is already signed' },
  FIELD_NOT_SIGNATURE: {
    zh: '同名的表单域不是签名域',
    en: 'A form field of that name exists and is not a signature field',
  },
  BAD_APPEARANCE: { zh: '印章外观无法使用', en: 'The seal appearance cannot be used' },
  BAD_OPTIONS: { zh: '签署参数无效', en: 'Invalid signing options' },
  CONTENTS_TOO_LARGE: {
    zh: '签名数据超出预留空间',
    en: 'The signature data is larger than the space reserved for it',
  },
};

/** A typed refusal: `code` for logic, `zh`/`en` for people, `message` with detail for logs. */
export class SignError extends Error {
  override name = 'SignError';
  readonly code: SignErrorCode;
  readonly zh: string;
  readonly en: string;
  constructor(code: SignErrorCode, detail?: string) {
    const m = MESSAGES[code];
    super(detail ? `${m.en}: ${detail}` : m.en);
    this.code = code;
    this.zh = m.zh;
    this.en = m.en;
  }
}
