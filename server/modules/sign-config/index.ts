// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
export { type SignConfigRecord, findAccountConfig, liveConfigNames, normaliseApplies } from './service.ts';
export { S } from './texts.ts';
export { signConfigDeleted, templatesUsingConfigs } from './hooks.ts';
