import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Account } from '../../lib/account.ts';
import { type Exec, camelOne, camelRows, one, rows, ts } from '../../db/sql-helpers.ts';

// SQL of the API keys and of the integrator API's idempotency records. Reads and changes of keys take the
// owning account and are scoped by it; `findLiveKeyByHash` is the one lookup by secret (the API's front door).

export type ApiKeyRecord = {
  id: string;
  ownerType: number;
  ownerId: string;
  createdBy: string;
  name: string;
  scopes: string[];
  prefix: string;
  createdAt: unknown;
  lastUsedAt: unknown;
  revokedAt: unknown;
  /** Trusted by the platform's administrators to assert its signers' identities (issue 23); off by default. */
  assertsIdentity: boolean;
};

const COLUMNS = sql`id, owner_type, owner_id, created_by, name, scopes, prefix, created_at, last_used_at, revoked_at,
  asserts_identity`;

export async function insertKey(
  ex: Exec,
  account: Account,
  v: { name: string; scopes: string[]; secretHash: string; prefix: string; createdBy: string; now: Date },
): Promise<ApiKeyRecord> {
  const id = randomUUID();
  const row = await camelOne<ApiKeyRecord>(
    ex,
    sql`INSERT INTO api_keys (id, owner_type, owner_id, created_by, name, scopes, secret_hash, prefix, created_at)
        VALUES (${id}, ${account.ownerType}, ${account.ownerId}, ${v.createdBy}, ${v.name},
          ${`{${v.scopes.join(',')}}`}::text[], ${v.secretHash}, ${v.prefix}, ${ts(v.now)})
        RETURNING ${COLUMNS}`,
  );
  if (!row) throw new Error('api key insert returned nothing');
  return row;
}

export function keysOf(ex: Exec, account: Account): Promise<ApiKeyRecord[]> {
  return camelRows<ApiKeyRecord>(
    ex,
    sql`SELECT ${COLUMNS} FROM api_keys WHERE owner_type = ${account.ownerType} AND owner_id = ${account.ownerId}
        ORDER BY created_at DESC, id`,
  );
}

export async function liveKeyCount(ex: Exec, account: Account): Promise<number> {
  const row = await one<{ n: number }>(
    ex,
    sql`SELECT count(*)::int AS n FROM api_keys
        WHERE owner_type = ${account.ownerType} AND owner_id = ${account.ownerId} AND revoked_at IS NULL`,
  );
  return Number(row?.n ?? 0);
}

export function findKey(ex: Exec, account: Account, id: string): Promise<ApiKeyRecord | undefined> {
  return camelOne<ApiKeyRecord>(
    ex,
    sql`SELECT ${COLUMNS} FROM api_keys
        WHERE id = ${id} AND owner_type = ${account.ownerType} AND owner_id = ${account.ownerId}`,
  );
}

/** Revokes a live key of the account; the revoked row, or undefined when none was live. */
export function revokeKey(
  ex: Exec,
  account: Account,
  id: string,
  now: Date,
): Promise<ApiKeyRecord | undefined> {
  return camelOne<ApiKeyRecord>(
    ex,
    sql`UPDATE api_keys SET revoked_at = ${ts(now)}
        WHERE id = ${id} AND owner_type = ${account.ownerType} AND owner_id = ${account.ownerId}
          AND revoked_at IS NULL
        RETURNING ${COLUMNS}`,
  );
}

/** The live key whose secret hashes so (the front door of /open/v1). */
export function findLiveKeyByHash(ex: Exec, secretHash: string): Promise<ApiKeyRecord | undefined> {
  return camelOne<ApiKeyRecord>(
    ex,
    sql`SELECT ${COLUMNS} FROM api_keys WHERE secret_hash = ${secretHash} AND revoked_at IS NULL`,
  );
}

/**
 * Sets whether a key may assert its signers' identities (the platform administrators' decision, never the key
 * owner's); the key's row, or undefined when no key has that id.
 */
export function setAssertsIdentity(ex: Exec, id: string, on: boolean): Promise<ApiKeyRecord | undefined> {
  return camelOne<ApiKeyRecord>(
    ex,
    sql`UPDATE api_keys SET asserts_identity = ${on} WHERE id = ${id} RETURNING ${COLUMNS}`,
  );
}

/** Records a use; written at most once per `everyMs` so that a busy key does not write on every request. */
export async function touchKey(ex: Exec, id: string, now: Date, everyMs: number): Promise<void> {
  await ex.execute(
    sql`UPDATE api_keys SET last_used_at = ${ts(now)}
        WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${ts(new Date(now.getTime() - everyMs))})`,
  );
}

type IdempotencyRecord = {
  requestHash: string;
  status: number | null;
  answer: unknown;
  createdAt: unknown;
};

/** Claims (key, idemKey) for a first request; false when a record already exists. */
export async function claimIdempotency(
  ex: Exec,
  v: { keyId: string; idemKey: string; requestHash: string; now: Date },
): Promise<boolean> {
  const done = await rows(
    ex,
    sql`INSERT INTO api_idempotency (api_key_id, idem_key, request_hash, created_at)
        VALUES (${v.keyId}, ${v.idemKey}, ${v.requestHash}, ${ts(v.now)})
        ON CONFLICT (api_key_id, idem_key) DO NOTHING RETURNING idem_key`,
  );
  return done.length === 1;
}

export function findIdempotency(
  ex: Exec,
  keyId: string,
  idemKey: string,
): Promise<IdempotencyRecord | undefined> {
  return camelOne<IdempotencyRecord>(
    ex,
    sql`SELECT request_hash, status, answer, created_at FROM api_idempotency
        WHERE api_key_id = ${keyId} AND idem_key = ${idemKey}`,
  );
}

export async function storeIdempotentAnswer(
  ex: Exec,
  v: { keyId: string; idemKey: string; status: number; answer: unknown },
): Promise<void> {
  await ex.execute(
    sql`UPDATE api_idempotency SET status = ${v.status}, answer = ${JSON.stringify(v.answer)}::jsonb
        WHERE api_key_id = ${v.keyId} AND idem_key = ${v.idemKey}`,
  );
}

export async function dropIdempotency(ex: Exec, keyId: string, idemKey: string): Promise<void> {
  await ex.execute(sql`DELETE FROM api_idempotency WHERE api_key_id = ${keyId} AND idem_key = ${idemKey}`);
}

/** Forgets records older than `before` (kept 24 hours). */
export async function pruneIdempotency(ex: Exec, before: Date): Promise<void> {
  await ex.execute(sql`DELETE FROM api_idempotency WHERE created_at < ${ts(before)}`);
}
