// The module's public face: other modules and the app import from here only (server/README.md, "Layers").
export { appendAudit, listAudit, presentEntry, verifyChain, verifyChains } from './chain.ts';
export type { AuditActor, AuditEvent } from './chain.ts';
export { EVENT_TEXT, localiseActor, localiseDetail, localiseEntry } from './localise.ts';
