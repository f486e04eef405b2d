// The paths of contract/calls/apikey.ts (zod-free: src/api/apikey.ts imports them).
import { csign } from '../call-path.ts';

export const createApiKey = /* @__PURE__ */ csign('createApiKey');
export const listApiKeys = /* @__PURE__ */ csign('listApiKeys');
export const revokeApiKey = /* @__PURE__ */ csign('revokeApiKey');
