// The module's public face: other modules and the app import from here only (server/README.md, "Layers").
export { findFlow, findParty, maskPhone, partiesOf } from './model.ts';
export type { FlowRow } from './model.ts';
export type { Account } from '../document/index.ts';
export { auditFlowEvent, roomActor, roomOf } from './room.ts';
export { flowModule } from './routes.ts';
export { flowAccess, launch, sessionActor } from './service.ts';
export type { Reader } from './service.ts';
export { ensureAuditReport } from './signing.ts';
export { F } from './texts.ts';
