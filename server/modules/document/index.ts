// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
export {
  type Document,
  appendVersion,
  attachToFlow,
  documentNamesOf,
  findByVerificationCode,
  findDocument,
  flowDocuments,
  launchedBySha256,
  launchVersionOf,
  lockDocument,
  reviseVersion,
  versionReasonsAfter,
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
