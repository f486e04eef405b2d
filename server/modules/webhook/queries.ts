import { sql } from 'drizzle-orm';
import { camelOne, camelRows, type Exec, one, rows, ts } from '../../db/sql-helpers.ts';
import type { Account } from '../../lib/account.ts';

// SQL of the webhook tables (migration 130). Endpoint reads and changes take the caller's account and are
// scoped by it; messages and attempts are reached through an endpoint of that account.

export type EndpointRecord = {
  id: string;
  ownerType: number;
  ownerId: string;
  url: string;
  description: string | null;
  events: unknown;
  secretSealed: string;
  enabled: boolean;
  createdBy: string;
  createdAt: unknown;
  updatedAt: unknown;
};

export type MessageRecord = {
  id: string;
  endpointId: string;
  eventId: string;
  type: string;
  body: string;
  createdAt: unknown;
  state: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: unknown;
  retryUntil: unknown;
  attempts: number;
};

export type AttemptRecord = {
  id: string;
  messageId: string;
  at: unknown;
  durationMs: number;
  ok: boolean;
  responseCode: number | null;
  error: string | null;
  manual: boolean;
};

const owned = (account: Account) => sql`owner_type = ${account.ownerType} AND owner_id = ${account.ownerId}`;

export async function insertEndpoint(
  ex: Exec,
  v: {
    id: string;
    account: Account;
    url: string;
    description: string | null;
    events: string[];
    secretSealed: string;
    createdBy: string;
    now: Date;
  },
): Promise<void> {
  await ex.execute(sql`
    INSERT INTO webhook_endpoints (id, owner_type, owner_id, url, description, events, secret_sealed, enabled,
      created_by, created_at, updated_at)
    VALUES (${v.id}, ${v.account.ownerType}, ${v.account.ownerId}, ${v.url}, ${v.description},
      ${JSON.stringify(v.events)}::jsonb, ${v.secretSealed}, true, ${v.createdBy}, ${ts(v.now)}, ${ts(v.now)})`);
}

export async function countEndpoints(ex: Exec, account: Account): Promise<number> {
  const r = await one<{ n: number }>(
    ex,
    sql`SELECT count(*)::int AS n FROM webhook_endpoints WHERE ${owned(account)}`,
  );
  return r?.n ?? 0;
}

export async function findEndpoint(
  ex: Exec,
  account: Account,
  id: string,
): Promise<EndpointRecord | undefined> {
  return camelOne<EndpointRecord>(
    ex,
    sql`SELECT * FROM webhook_endpoints WHERE id = ${id} AND ${owned(account)}`,
  );
}

export async function endpointById(ex: Exec, id: string): Promise<EndpointRecord | undefined> {
  return camelOne<EndpointRecord>(ex, sql`SELECT * FROM webhook_endpoints WHERE id = ${id}`);
}

export async function listEndpoints(ex: Exec, account: Account): Promise<EndpointRecord[]> {
  return camelRows<EndpointRecord>(
    ex,
    sql`SELECT * FROM webhook_endpoints WHERE ${owned(account)} ORDER BY created_at DESC, id`,
  );
}

/** The enabled endpoints of an account subscribed to an event type. */
export async function subscribedEndpoints(
  ex: Exec,
  account: Account,
  type: string,
): Promise<EndpointRecord[]> {
  return camelRows<EndpointRecord>(
    ex,
    sql`SELECT * FROM webhook_endpoints WHERE ${owned(account)} AND enabled
          AND events @> ${JSON.stringify([type])}::jsonb`,
  );
}

/** Turns an endpoint of the account on or off, or replaces its sealed secret; true when it was the account's. */
export async function updateEndpoint(
  ex: Exec,
  account: Account,
  id: string,
  change: { enabled: boolean } | { secretSealed: string },
  now: Date,
): Promise<boolean> {
  const set =
    'enabled' in change ? sql`enabled = ${change.enabled}` : sql`secret_sealed = ${change.secretSealed}`;
  const r = await rows(
    ex,
    sql`UPDATE webhook_endpoints SET ${set}, updated_at = ${ts(now)}
        WHERE id = ${id} AND ${owned(account)} RETURNING id`,
  );
  return r.length === 1;
}

export async function deleteEndpoint(ex: Exec, account: Account, id: string): Promise<boolean> {
  const r = await rows(
    ex,
    sql`DELETE FROM webhook_endpoints WHERE id = ${id} AND ${owned(account)} RETURNING id`,
  );
  return r.length === 1;
}

/** The latest attempt of each endpoint (for the list). */
export async function lastAttempts(ex: Exec, endpointIds: string[]): Promise<Map<string, AttemptRecord>> {
  const out = new Map<string, AttemptRecord>();
  if (endpointIds.length === 0) return out;
  const found = await camelRows<AttemptRecord & { endpointId: string }>(
    ex,
    sql`SELECT DISTINCT ON (m.endpoint_id) m.endpoint_id, a.*
        FROM webhook_attempts a JOIN webhook_messages m ON m.id = a.message_id
        WHERE m.endpoint_id IN (${sql.join(
          endpointIds.map((id) => sql`${id}`),
          sql`, `,
        )})
        ORDER BY m.endpoint_id, a.at DESC, a.id`,
  );
  for (const r of found) out.set(r.endpointId, r);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// messages and attempts

export async function insertMessage(
  ex: Exec,
  v: {
    id: string;
    endpointId: string;
    eventId: string;
    type: string;
    body: string;
    now: Date;
    retryUntil: Date;
  },
): Promise<void> {
  await ex.execute(sql`
    INSERT INTO webhook_messages (id, endpoint_id, event_id, type, body, created_at, state, next_attempt_at,
      retry_until, attempts)
    VALUES (${v.id}, ${v.endpointId}, ${v.eventId}, ${v.type}, ${v.body}, ${ts(v.now)}, 'pending', ${ts(v.now)},
      ${ts(v.retryUntil)}, 0)
    ON CONFLICT (endpoint_id, event_id) DO NOTHING`);
}

export async function findMessage(ex: Exec, id: string): Promise<MessageRecord | undefined> {
  return camelOne<MessageRecord>(ex, sql`SELECT * FROM webhook_messages WHERE id = ${id}`);
}

/** A message of one of the account's endpoints. */
export async function findOwnedMessage(
  ex: Exec,
  account: Account,
  id: string,
): Promise<MessageRecord | undefined> {
  return camelOne<MessageRecord>(
    ex,
    sql`SELECT m.* FROM webhook_messages m JOIN webhook_endpoints e ON e.id = m.endpoint_id
        WHERE m.id = ${id} AND e.owner_type = ${account.ownerType} AND e.owner_id = ${account.ownerId}`,
  );
}

/**
 * Takes a due pending message for one attempt: moves its next attempt `leaseMs` ahead, so another worker
 * does not send it at the same time (the attempt then sets the real next time). Undefined when it is not
 * due or not pending.
 */
export async function claimDue(
  ex: Exec,
  id: string,
  now: Date,
  leaseMs: number,
): Promise<MessageRecord | undefined> {
  return camelOne<MessageRecord>(
    ex,
    sql`UPDATE webhook_messages SET next_attempt_at = ${ts(new Date(now.getTime() + leaseMs))}
        WHERE id = ${id} AND state = 'pending' AND next_attempt_at <= ${ts(now)} RETURNING *`,
  );
}

export async function dueMessageIds(ex: Exec, now: Date, limit: number): Promise<string[]> {
  const r = await rows<{ id: string }>(
    ex,
    sql`SELECT id FROM webhook_messages WHERE state = 'pending' AND next_attempt_at <= ${ts(now)}
        ORDER BY next_attempt_at, id LIMIT ${limit}`,
  );
  return r.map((x) => x.id);
}

/** Stores one attempt and the message's state after it (in one transaction, the caller's). */
export async function recordAttempt(
  ex: Exec,
  a: {
    id: string;
    messageId: string;
    at: Date;
    durationMs: number;
    ok: boolean;
    responseCode: number | null;
    error: string | null;
    manual: boolean;
  },
  next: { state: 'pending' | 'delivered' | 'failed'; nextAttemptAt: Date | null } | null,
): Promise<void> {
  await ex.execute(sql`
    INSERT INTO webhook_attempts (id, message_id, at, duration_ms, ok, response_code, error, manual)
    VALUES (${a.id}, ${a.messageId}, ${ts(a.at)}, ${a.durationMs}, ${a.ok}, ${a.responseCode}, ${a.error}, ${a.manual})`);
  if (next)
    await ex.execute(sql`
      UPDATE webhook_messages SET attempts = attempts + 1, state = ${next.state},
        next_attempt_at = ${next.nextAttemptAt ? ts(next.nextAttemptAt) : null}
      WHERE id = ${a.messageId}`);
  else await ex.execute(sql`UPDATE webhook_messages SET attempts = attempts + 1 WHERE id = ${a.messageId}`);
}

export async function listMessages(
  ex: Exec,
  endpointId: string,
  page: { pageNum: number; pageSize: number },
): Promise<{ list: MessageRecord[]; total: number }> {
  const list = await camelRows<MessageRecord>(
    ex,
    sql`SELECT * FROM webhook_messages WHERE endpoint_id = ${endpointId}
        ORDER BY created_at DESC, id DESC LIMIT ${page.pageSize} OFFSET ${(page.pageNum - 1) * page.pageSize}`,
  );
  const n = await one<{ n: number }>(
    ex,
    sql`SELECT count(*)::int AS n FROM webhook_messages WHERE endpoint_id = ${endpointId}`,
  );
  return { list, total: n?.n ?? 0 };
}

export async function attemptsOf(ex: Exec, messageIds: string[]): Promise<AttemptRecord[]> {
  if (messageIds.length === 0) return [];
  return camelRows<AttemptRecord>(
    ex,
    sql`SELECT * FROM webhook_attempts WHERE message_id IN (${sql.join(
      messageIds.map((id) => sql`${id}`),
      sql`, `,
    )}) ORDER BY at, id`,
  );
}
