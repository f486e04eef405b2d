// What an API key may do on the integrator API (/open/v1), without zod: the server's schemas
// (contract/calls/apikey.ts) and the client's key screen both take the list from here.

/** The scopes of an API key. */
export const API_SCOPES = [
  'flows:read',
  'flows:write',
  'templates:read',
  'documents:read',
  'webhooks:manage',
  /** seal-use approval requests of the key's company (issue 27) */
  'approvals:read',
  /** deciding them: the key acts as its administrator, who decides only where a seal's policy names them */
  'approvals:write',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** Every secret starts so (easy to recognise in a leaked file or a secret scanner). */
export const API_KEY_SECRET_PREFIX = 'esk_live_';
