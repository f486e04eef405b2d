import type { Text } from '../../http/texts.ts';

/** Texts of the document module, in both languages. */
export const D = {
  documentNotFound: { en: 'document not found', zh: '文件不存在' },
  uploadTooLarge: (mb: number): Text => ({
    en: `the file is larger than ${mb} MB`,
    zh: `文件超过 ${mb} MB`,
  }),
  noFile: { en: 'choose a PDF file to upload', zh: '请选择要上传的 PDF 文件' },
  notPdf: { en: 'the file is not a PDF', zh: '文件不是 PDF 格式' },
  encrypted: {
    en: 'the PDF is encrypted with a method that is not supported; upload an unprotected copy',
    zh: 'PDF 使用了不支持的加密方式，请上传未加密的文件',
  },
  passwordRequired: {
    en: 'the PDF needs a password to open; upload a copy without a password',
    zh: '该 PDF 需要密码才能打开，请上传未设密码的文件',
  },
  notPermitted: {
    en: 'the PDF permissions do not allow filling in form fields, which signing needs; upload a copy without these restrictions',
    zh: '该 PDF 的权限设置不允许填写表单域（签署需要此权限），请上传未设此限制的文件',
  },
  broken: { en: 'the PDF is damaged and cannot be read', zh: 'PDF 文件已损坏，无法读取' },
  empty: { en: 'the PDF has no pages', zh: 'PDF 文件没有页面' },
  documentAlreadyLaunched: {
    en: 'this document is already in a signing flow',
    zh: '该文件已在签署流程中',
  },
};
