// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
export {
  PdfRejected,
  compositeAppearance,
  embedCjkFont,
  findKeyword,
  footerWouldDecrypt,
  stampFooter,
} from './pdf-tools.ts';
export type { AppearancePart } from './pdf-tools.ts';
export {
  type Document,
  appendVersion,
  attachToFlow,
  documentNamesOf,
  findByVerificationCode,
  findDocument,
  flowDocuments,
  lockDocument,
} from './flow-documents.ts';
export {
  accountOf,
  blobBytes,
  deleteDocument,
  ownDocument,
  pageSizesOf,
  pdfRefusal,
  presentDocument,
  uploadDocument,
} from './service.ts';
export { D } from './texts.ts';
