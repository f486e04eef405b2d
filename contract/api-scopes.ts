// What an API key may do on the integrator API (/open/v1), without zod: the server's schemas
// (contract/calls/apikey.ts) and the client's key screen both take the list from here.

/** The scopes of an API key. */
export const API_SCOPES = [
  'flows:read',
  'flows:write',
  'templates:read',
  'documents:read',
  'webhooks:manage',
  // The state of the company's authorisation letters (issue 27).
  'authorisations:read',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** Every secret starts so (easy to recognise in a leaked file or a secret scanner). */
export const API_KEY_SECRET_PREFIX = 'esk_live_';
