// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
export { seedCatalogue } from './catalogue.ts';
export {
  consumeUnit,
  quotaOf,
  releaseUnit,
  reserveUnit,
} from './quota.ts';
export { requirePlatformAdmin } from './service.ts';
