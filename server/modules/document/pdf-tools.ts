// The PDF work of documents (inspection, the verification footer, keywords, composite appearances) is done
// by the PDF core: server/pdf/compose/pdf-tools.ts.
export {
  type AppearancePart,
  compositeAppearance,
  embedCjkFont,
  findKeyword,
  footerWouldDecrypt,
  hasEncryptEntry,
  inspectPdf,
  type KeywordHit,
  type PdfProblem,
  PdfRejected,
  stampFooter,
  verifyUrl,
} from '../../pdf/compose/pdf-tools.ts';
