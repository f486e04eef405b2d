// Texts and files of the verification journeys (src/features/verify/texts.ts is the source of the words;
// it cannot be imported here because it uses the app's path aliases).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locale } from './support.ts';

export const CORPUS = join(import.meta.dirname, '..', '..', 'shared', 'pdf-corpus', 'files');
export const corpusBytes = (name: string) => readFileSync(join(CORPUS, name));

export const verifyTexts: Record<
  Locale,
  {
    drop: string;
    result: string;
    modified: string;
    sigModified: string;
    reasonModified: string;
    unknownIdentity: string;
    sigUnknownIdentity: string;
    reasonUntrusted: string;
    signature1: string;
    notPdf: string;
    empty: string;
    document: string;
    chain: string;
    downloadPdf: string;
    rootDownload: string;
    chooseAgain: string;
  }
> = {
  'en-US': {
    drop: 'Choose a PDF to verify',
    result: 'Verification result',
    modified: 'The document has been altered or corrupted since it was signed',
    sigModified: 'Document modified after signing',
    reasonModified: 'Changes that are not allowed were made after signing.',
    unknownIdentity: "The signatures are intact, but the signer's identity is unknown",
    sigUnknownIdentity: 'Signer identity unknown',
    reasonUntrusted: 'The certificate chain does not lead to a trusted root certificate.',
    signature1: 'Signature 1',
    notPdf: 'The file is not a PDF document.',
    empty: 'The file is empty.',
    document: 'Document',
    chain: 'Certificate chain',
    downloadPdf: 'Download report (PDF)',
    rootDownload: 'Download the platform root certificate',
    chooseAgain: 'Show my copy of the file',
  },
  'zh-CN': {
    drop: '选择要验证的 PDF',
    result: '验证结果',
    modified: '文件在签名后已被修改或损坏',
    sigModified: '签名后文件被修改',
    reasonModified: '签名后进行了不允许的修改。',
    unknownIdentity: '签名完整，但签署人身份未知',
    sigUnknownIdentity: '签署人身份未知',
    reasonUntrusted: '证书链没有连接到受信任的根证书。',
    signature1: '签名 1',
    notPdf: '该文件不是 PDF 文件。',
    empty: '文件是空的。',
    document: '文件',
    chain: '证书链',
    downloadPdf: '下载报告（PDF）',
    rootDownload: '下载平台根证书',
    chooseAgain: '显示我的文件',
  },
};
