// The module's public face: other modules and the app import from here only (server/README.md, "Layers").
// The integrator API (server/open/) authenticates keys, checks scopes and keeps idempotent answers here.
export { apiKeyModule } from './routes.ts';
export {
  type KeyCaller,
  authenticate,
  finishIdempotent,
  requireScope,
  setKeyTrust,
  startIdempotent,
} from './service.ts';
