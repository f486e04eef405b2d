// The module's public face: other modules and the app import from here only (server/README.md, "Layers").
export { seedCatalogue } from './catalogue.ts';
export {
  consumeUnit,
  quotaOf,
  releaseUnit,
  reserveUnit,
} from './quota.ts';
export { packageModule } from './routes.ts';
export { requirePlatformAdmin } from './service.ts';
