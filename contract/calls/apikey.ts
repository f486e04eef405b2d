import { z } from 'zod';
import { bi } from '../bilingual.ts';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/apikey.ts';
import { API_SCOPES } from '../api-scopes.ts';

// API keys of the integrator REST API (/open/v1, README "Integrators"). A key acts as the account that made
// it (a person, or a company: only its administrators make and revoke the company's keys) and may do only
// what its scopes allow. The secret is shown once, in the answer of createApiKey; the server keeps only
// its SHA-256.

export { API_KEY_SECRET_PREFIX, API_SCOPES, type ApiScope } from '../api-scopes.ts';
export const zApiScope = z.enum(API_SCOPES);

export const zApiKey = z.object({
  keyId: z.string(),
  name: z.string(),
  scopes: z.array(zApiScope),
  /** The first characters of the secret, e.g. `esk_live_AbC1`: enough to tell keys apart, not to use one. */
  prefix: z.string(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /**
   * The platform's administrators trust this key to assert its signers' identities: its embedded-signing rooms
   * may make accounts, record real names and issue certificates without an SMS code in the room (issue 23).
   * Off unless an administrator turned it on (`npm run admin -- trust-key`); never set by the key's owner.
   */
  assertsIdentity: z.boolean(),
});
export type ApiKey = z.infer<typeof zApiKey>;

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));

export const createApiKey = defineCall({
  call: P.createApiKey,
  auth: true,
  summary:
    'Creates an API key of the caller account (a company key: administrators only, else HTTP 602) with a name ' +
    'and scopes. The answer carries the secret once; it cannot be shown again. At most 20 live keys per account.',
  request: zBase.extend({
    name: z.string().trim().min(1, bi('enter a name', '请输入名称')).max(50),
    scopes: z
      .array(zApiScope)
      .min(1, bi('choose at least one permission', '请至少选择一项权限'))
      .max(API_SCOPES.length),
  }),
  response: zApiKey.extend({ secret: z.string() }),
});

export const listApiKeys = defineCall({
  call: P.listApiKeys,
  auth: true,
  summary:
    'API keys of the caller account, newest first, revoked ones included (company: administrators only).',
  request: zBase,
  response: z.object({ list: z.array(zApiKey) }),
});

export const revokeApiKey = defineCall({
  call: P.revokeApiKey,
  auth: true,
  summary:
    'Revokes an API key of the caller account at once (company: administrators only); another account’s: 1101.',
  request: zBase.extend({ keyId: zId }),
  response: zApiKey,
});

export const apiKeyCalls = [createApiKey, listApiKeys, revokeApiKey] as const;
