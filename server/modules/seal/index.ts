// The module's public face: other modules and the app import from here only (server/README.md, "Layers").
export { companyOwner, isAuthorisedNow, listSeals, personOwner } from './queries.ts';
export { roomTokenUser, sealInUnfinishedSigning } from './hooks.ts';
export { sealModule } from './routes.ts';
export { hasUsableSeal, saveCompanySeal, sealForSigning } from './service.ts';
