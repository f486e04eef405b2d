import type { Text } from '../../http/texts.ts';

/** What the verification service says in `msg` (the page has its own words for each code too). */
export const V = {
  empty: { en: 'The file is empty.', zh: '文件是空的。' },
  notPdf: { en: 'The file is not a PDF document.', zh: '该文件不是 PDF 文件。' },
  tooLarge: (mb: number): Text => ({
    en: `The file is larger than the ${mb} MB limit.`,
    zh: `文件超过了 ${mb} MB 的大小限制。`,
  }),
  encrypted: {
    en: 'The PDF is encrypted with a password it needs to open; it cannot be verified (encrypted files that open without one are).',
    zh: '该 PDF 已加密且需要密码才能打开，无法验证（无需密码即可打开的加密文件可以验证）。',
  },
  unreadable: {
    en: 'The PDF structure cannot be read; the file is damaged.',
    zh: '无法读取该 PDF 的结构，文件已损坏。',
  },
  timeout: {
    en: 'Verification took longer than the time limit; the file may be damaged or hostile.',
    zh: '验证超过了时间限制，文件可能已损坏或被恶意构造。',
  },
  noFile: {
    en: 'Choose a PDF file to verify (form field "file").',
    zh: '请选择要验证的 PDF 文件（表单字段 file）。',
  },
  tooMany: {
    en: 'Too many verifications from your address; please try again in a minute.',
    zh: '您的验证次数过多，请一分钟后再试。',
  },
  busy: {
    en: 'The verification service is busy; please try again shortly.',
    zh: '验证服务繁忙，请稍后再试。',
  },
  reportNotFound: {
    en: 'This verification report does not exist or has expired (reports are kept for one hour).',
    zh: '该验证报告不存在或已过期（报告保留一小时）。',
  },
  documentNotFound: { en: 'No document has this verification code.', zh: '没有与该验证码对应的文件。' },
} as const;
