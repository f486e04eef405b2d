import type { Actor } from '../../lib/actor.ts';
import { createHash, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import {
  API_KEY_SECRET_PREFIX,
  type ApiKey,
  type ApiScope,
  type createApiKey,
} from '#contract/calls/apikey.ts';
import { Code } from '#contract/codes.ts';
import { UserType } from '#contract/enums.ts';
import { hitCounter } from '../../db/rate-counter.ts';
import { isoOrNull, dateOf } from '../../db/sql-helpers.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { T, type Text } from '../../http/texts.ts';
import { requireCompanyRole } from '../company/index.ts';
import type { Account } from '../../lib/account.ts';
import { findUserById, usersByIds } from '../session/index.ts';
import * as q from './queries.ts';
import { K } from './texts.ts';

/** Live keys an account may hold at once. */
const MAX_LIVE_KEYS = 20;
/** Characters of the secret kept visible in the list (`esk_live_` and four more). */
const VISIBLE_PREFIX_LENGTH = API_KEY_SECRET_PREFIX.length + 4;
/** last_used_at is written at most this often per key. */
const TOUCH_EVERY_MS = 60_000;
/** How long an Idempotency-Key's first answer is kept. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A first request still unanswered after this long is taken as abandoned (its server stopped). */
const ABANDONED_AFTER_MS = 5 * 60 * 1000;

const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/**
 * The account whose keys the caller manages: the person, or the session's company when the caller is one
 * of its administrators (operators and others: HTTP 602).
 */
async function keyAccount(deps: AppDeps, actor: Actor): Promise<Account> {
  if (actor.userType === UserType.Company) {
    const access = await requireCompanyRole(deps, actor, ['admin']);
    return { ownerType: 1, ownerId: access.companyId };
  }
  return { ownerType: 0, ownerId: actor.userId };
}

async function present(deps: AppDeps, found: q.ApiKeyRecord[]): Promise<ApiKey[]> {
  const creators = await usersByIds(
    deps.db,
    found.map((k) => k.createdBy),
  );
  return found.map((k) => ({
    keyId: k.id,
    name: k.name,
    scopes: k.scopes as ApiScope[],
    prefix: k.prefix,
    createdByName: creators.get(k.createdBy)?.name ?? null,
    createdAt: dateOf(k.createdAt).toISOString(),
    lastUsedAt: isoOrNull(k.lastUsedAt),
    revokedAt: isoOrNull(k.revokedAt),
    assertsIdentity: k.assertsIdentity,
  }));
}

export async function create(
  deps: AppDeps,
  actor: Actor,
  input: Pick<z.output<(typeof createApiKey)['request']>, 'name' | 'scopes'>,
): Promise<ApiKey & { secret: string }> {
  const account = await keyAccount(deps, actor);
  if ((await q.liveKeyCount(deps.db, account)) >= MAX_LIVE_KEYS)
    throw new AppError(Code.Refused, K.tooManyKeys(MAX_LIVE_KEYS));
  const secret = `${API_KEY_SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;
  const row = await q.insertKey(deps.db, account, {
    name: input.name,
    scopes: [...new Set(input.scopes)],
    secretHash: hashSecret(secret),
    prefix: secret.slice(0, VISIBLE_PREFIX_LENGTH),
    createdBy: actor.userId,
    now: deps.clock.now(),
  });
  const [shown] = await present(deps, [row]);
  return { ...shown, secret };
}

export async function list(deps: AppDeps, actor: Actor): Promise<{ list: ApiKey[] }> {
  return { list: await present(deps, await q.keysOf(deps.db, await keyAccount(deps, actor))) };
}

export async function revoke(deps: AppDeps, actor: Actor, keyId: string): Promise<ApiKey> {
  const account = await keyAccount(deps, actor);
  const row = await q.revokeKey(deps.db, account, keyId, deps.clock.now());
  if (row) return (await present(deps, [row]))[0];
  const existing = await q.findKey(deps.db, account, keyId);
  if (!existing) throw new AppError(Code.NotFound, K.keyNotFound);
  throw new AppError(Code.Refused, K.alreadyRevoked);
}

/** The key a request of the integrator API acts with: its id, scopes, and the Actor its calls act as. */
export type KeyCaller = {
  keyId: string;
  scopes: readonly ApiScope[];
  actor: Actor;
  /** The platform trusts this key to assert its signers' identities (embedded rooms may onboard). */
  assertsIdentity: boolean;
};

const invalid = (text: Text) => new AppError(Code.ApiKeyInvalid, text, { status: 401 });

/**
 * Authenticates an API key secret: a live key whose account can still act (the person active; for a company
 * key, its creator still an active administrator of the verified company). The answer's `actor` is what
 * a module's services take, so the key sees exactly what its account sees. Counts the request against the
 * key's per-minute limit (in the database, so every instance shares it: HTTP 429 beyond) and records the use.
 */
export async function authenticate(deps: AppDeps, secret: string | undefined): Promise<KeyCaller> {
  if (!secret) throw invalid(K.keyMissing);
  if (!secret.startsWith(API_KEY_SECRET_PREFIX) || secret.length > 200) throw invalid(K.keyUnknown);
  const row = await q.findLiveKeyByHash(deps.db, hashSecret(secret));
  if (!row) throw invalid(K.keyUnknown);
  const now = deps.clock.now();
  const creator = await findUserById(deps.db, row.createdBy);
  if (creator?.status !== 'active') throw invalid(K.keyOwnerGone);
  const actor: Actor = {
    userId: row.createdBy,
    userType: row.ownerType === 1 ? UserType.Company : UserType.Person,
    companyId: row.ownerType === 1 ? row.ownerId : null,
    via: { kind: 'apiKey', keyId: row.id },
  };
  if (row.ownerType === 1) {
    try {
      await requireCompanyRole(deps, actor, ['admin']);
    } catch (err) {
      if (err instanceof AppError) throw invalid(K.keyOwnerGone);
      throw err;
    }
  }
  const limit = deps.config.openApiRatePerMinute;
  const count = await hitCounter(deps.db, `apikey:${row.id}`, 60_000, now);
  if (count > limit) {
    const retryAfterSeconds = Math.max(1, Math.ceil((60_000 - (now.getTime() % 60_000)) / 1000));
    throw new AppError(Code.RateLimited, T.rateLimited, { status: 429, data: { retryAfterSeconds } });
  }
  await q.touchKey(deps.db, row.id, now, TOUCH_EVERY_MS);
  return { keyId: row.id, scopes: row.scopes as ApiScope[], actor, assertsIdentity: row.assertsIdentity };
}

/**
 * Trusts a key (or stops trusting it) to assert its signers' identities in embedded signing rooms (issue 23):
 * the platform administrators' decision (`npm run admin -- trust-key`), logged with the key. Answers the
 * key's id, name and new setting; throws when no key has that id.
 */
export async function setKeyTrust(deps: AppDeps, keyId: string, on: boolean) {
  const row = await q.setAssertsIdentity(deps.db, keyId, on);
  if (!row) throw new Error(`no API key ${keyId}`);
  deps.log.info({ keyId, assertsIdentity: on }, 'api key: identity assertion trust changed');
  return {
    keyId: row.id,
    name: row.name,
    assertsIdentity: row.assertsIdentity,
    revoked: row.revokedAt !== null,
  };
}

/** Refuses (HTTP 403) a key without `scope`. */
export function requireScope(caller: KeyCaller, scope: ApiScope): void {
  if (!caller.scopes.includes(scope))
    throw new AppError(Code.ApiScopeMissing, K.scopeMissing(scope), { status: 403 });
}

type IdempotencyStart = { state: 'first' } | { state: 'replay'; status: number; answer: unknown };

/**
 * Starts a POST sent with an Idempotency-Key: the first request claims the key (`first`; finish with
 * `finishIdempotent`); the same key with the same request hash gets the stored answer (`replay`); with
 * another hash, HTTP 422; while the first is still running, HTTP 409 (after 5 minutes without an answer it is
 * taken as abandoned and the key may be used again). Records older than 24 hours are gone.
 */
export async function startIdempotent(
  deps: AppDeps,
  keyId: string,
  idemKey: string,
  requestHash: string,
): Promise<IdempotencyStart> {
  if (!/^[\x21-\x7e]{1,200}$/.test(idemKey))
    throw new AppError(Code.BadRequest, K.idempotencyKeyBad, { status: 400 });
  const now = deps.clock.now();
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await q.claimIdempotency(deps.db, { keyId, idemKey, requestHash, now })) return { state: 'first' };
    const found = await q.findIdempotency(deps.db, keyId, idemKey);
    if (!found) continue; // removed in between: claim again
    if (now.getTime() - dateOf(found.createdAt).getTime() > IDEMPOTENCY_TTL_MS) {
      await q.dropIdempotency(deps.db, keyId, idemKey);
      continue;
    }
    if (found.requestHash !== requestHash)
      throw new AppError(Code.IdempotencyConflict, K.idempotencyConflict, { status: 422 });
    if (found.status === null) {
      // A first request that never finished (its server stopped) must not block the key for 24 hours.
      if (now.getTime() - dateOf(found.createdAt).getTime() > ABANDONED_AFTER_MS) {
        await q.dropIdempotency(deps.db, keyId, idemKey);
        continue;
      }
      throw new AppError(Code.IdempotencyInProgress, K.idempotencyInProgress, { status: 409 });
    }
    return { state: 'replay', status: found.status, answer: found.answer };
  }
  throw new AppError(Code.IdempotencyInProgress, K.idempotencyInProgress, { status: 409 });
}

/**
 * Stores the first answer of an idempotent POST. A failure of the server itself (5xx) is not kept: the
 * record is dropped so the integrator may retry with the same key.
 */
export async function finishIdempotent(
  deps: AppDeps,
  keyId: string,
  idemKey: string,
  status: number,
  answer: unknown,
): Promise<void> {
  if (status >= 500) await q.dropIdempotency(deps.db, keyId, idemKey);
  else await q.storeIdempotentAnswer(deps.db, { keyId, idemKey, status, answer });
}

/** Forgets idempotency records past their 24 hours (called now and then). */
export function pruneIdempotency(deps: AppDeps): Promise<void> {
  return q.pruneIdempotency(deps.db, new Date(deps.clock.now().getTime() - IDEMPOTENCY_TTL_MS));
}
