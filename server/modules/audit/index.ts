// The module's public face: other modules and the app import from here only (server/README.md, "Layers").
export { appendAudit, listAudit, presentEntry, verifyChain, verifyChains } from './chain.ts';
export type { AuditActor } from './chain.ts';
export { localiseEntry } from './localise.ts';
export { buildAuditReport } from './report.ts';
