// The module's public face: other modules and the app import from here only (server/README.md, "Layers").
export {
  attachToFlow,
  documentNamesOf,
  findByVerificationCode,
  findDocument,
  flowDocuments,
  lockDocument,
  moveToVersion,
} from './queries.ts';
export type { Account, DocumentRow } from './queries.ts';
export { documentModule } from './routes.ts';
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
