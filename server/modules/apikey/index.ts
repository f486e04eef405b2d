// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
// The integrator API (server/open/) authenticates keys, checks scopes and keeps idempotent answers here.
export {
  IDEMPOTENCY_TTL_MS,
  type IdempotencyStart,
  type KeyCaller,
  authenticate,
  finishIdempotent,
  requireScope,
  setKeyTrust,
  startIdempotent,
} from './service.ts';
export { K } from './texts.ts';
