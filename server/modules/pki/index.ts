// The module's public face: other modules and the app import from here only (server/README.md, "Layers").
export { DbCertRepository, listHolderCertificates, listHolderGoodSerials } from './queries.ts';
export type { HolderCertRow } from './queries.ts';
export { presentCertSummary } from './present.ts';
export { pkiModule } from './routes.ts';
export { pkiFor, prepareCaFiles } from './service.ts';
