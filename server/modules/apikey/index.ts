// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
// The integrator API (server/open/) authenticates keys, checks scopes and keeps idempotent answers here.
export {
  type KeyCaller,
  authenticate,
  finishIdempotent,
  list as listApiKeys,
  requireScope,
  setKeyTrust,
  startIdempotent,
} from './service.ts';
