// Typed client of contract/calls/apikey.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/apikey.ts';
import * as P from '#contract/paths/apikey.ts';
import { call } from './http.ts';

export type { ApiKey, ApiScope } from '#contract/calls/apikey.ts';

export { API_SCOPES } from '#contract/api-scopes.ts';

export const createApiKey = call<typeof calls.createApiKey>(P.createApiKey);

export const listApiKeys = call<typeof calls.listApiKeys>(P.listApiKeys);

export const revokeApiKey = call<typeof calls.revokeApiKey>(P.revokeApiKey);
