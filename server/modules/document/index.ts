// The module's public face: other modules and the app import from here only (server/README.md, "Layers").
export {
  PdfRejected,
  compositeAppearance,
  embedCjkFont,
  findKeyword,
  footerWouldDecrypt,
  stampFooter,
} from './pdf-tools.ts';
export type { AppearancePart } from './pdf-tools.ts';
export { documentModule, readerOf } from './routes.ts';
export {
  accountOf,
  blobBytes,
  deleteDocument,
  findDocument,
  ownDocument,
  pageSizesOf,
  presentDocument,
  uploadDocument,
} from './service.ts';
export type { Account, DocumentRow } from './service.ts';
