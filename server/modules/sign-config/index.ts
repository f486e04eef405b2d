// The module's public face: other modules and the app import from here only (server/README.md, "Layers").
export { findConfig, likePattern, liveConfigNames } from './queries.ts';
export type { SignConfigRecord } from './queries.ts';
export { signConfigModule } from './routes.ts';
export { normaliseApplies } from './service.ts';
export { S } from './texts.ts';
export { signConfigDeleted, templatesUsingConfigs } from './hooks.ts';
