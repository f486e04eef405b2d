/** Why a PDF was not signed. Every code is a refusal of the input or the request, never a partial write. */
export const SignErrorCode = {
  NotPdf: 'NOT_PDF',
  /** Encrypted with a security handler or method this signer does not implement. */
  Encrypted: 'ENCRYPTED',
  /** Encrypted with a user password: it cannot even be opened without it. */
  PasswordRequired: 'PASSWORD_REQUIRED',
  /** Encrypted with permissions that forbid filling in form fields (signing fills a signature field). */
  SigningNotPermitted: 'SIGNING_NOT_PERMITTED',
  /** The cross-reference data is damaged and the file already carries a signature: repair would break it. */
  SignedFileDamaged: 'SIGNED_FILE_DAMAGED',
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
  ENCRYPTED: {
    zh: '该 PDF 使用了不支持的加密方式，无法签署',
    en: 'The PDF is encrypted with a method that is not supported; it cannot be signed',
  },
  PASSWORD_REQUIRED: {
    zh: '该 PDF 需要密码才能打开，请上传未加密的文件',
    en: 'The PDF needs a password to open; upload a copy without a password',
  },
  SIGNING_NOT_PERMITTED: {
    zh: '该 PDF 的权限设置不允许填写表单域（签署需要此权限）',
    en: 'The PDF permissions do not allow filling in form fields, which signing needs',
  },
  SIGNED_FILE_DAMAGED: {
    zh: '该 PDF 已有签名，但交叉引用表损坏，无法在不破坏原有签名的情况下追加签署',
    en: 'The PDF already carries a signature and its cross-reference data is damaged; it cannot be extended without breaking that signature',
  },
  BROKEN_XREF: {
    zh: 'PDF 文件已损坏，修复后仍找不到其页面或对象，无法签署',
    en: 'The PDF is damaged beyond repair: its pages or objects cannot be found, so it cannot be signed',
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
  /** what exactly is wrong, when known (for logs, and for what a repair says it repaired) */
  readonly detail: string | undefined;
  constructor(code: SignErrorCode, detail?: string) {
    const m = MESSAGES[code];
    super(detail ? `${m.en}: ${detail}` : m.en);
    this.code = code;
    this.detail = detail;
    this.zh = m.zh;
    this.en = m.en;
  }
}
