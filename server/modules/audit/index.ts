// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
export { appendAudit, listAudit, presentEntry, verifyChain, verifyChains } from './chain.ts';
export type { AuditActor, AuditEvent } from './chain.ts';
export { EVENT_TEXT, localiseActor, localiseDetail, localiseEntry } from './localise.ts';
