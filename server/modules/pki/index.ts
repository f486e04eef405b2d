// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
export {
  type HolderCertificate,
  certificateBySerial,
  currentCertificate,
  holderCertificates,
  holderGoodSerials,
  pkiFor,
  prepareCaFiles,
} from './service.ts';
export { presentCertSummary } from './present.ts';
