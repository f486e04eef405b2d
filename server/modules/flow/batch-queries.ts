// SQL of batch signing (issue 28): sign_batches and sign_batch_items (migration 158). Rows come back camelCase.
import { sql } from 'drizzle-orm';
import { type Exec, camelOne, camelRows, ts } from '../../db/sql-helpers.ts';

export type SignBatchRow = {
  id: string;
  userId: string;
  userType: number;
  companyId: string | null;
  status: 'prepared' | 'running' | 'done';
  total: number;
  signed: number;
  failed: number;
  intent: 'sms' | 'password' | 'face';
  codeSentAt: Date | string | null;
  provenAt: Date | string | null;
  sealChoice: unknown;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date | string;
  finishedAt: Date | string | null;
};

export type SignBatchItemRow = {
  batchId: string;
  flowId: string;
  partyId: string;
  ord: number;
  status: 'pending' | 'signed' | 'failed';
  attempts: number;
  error: unknown;
  title: string;
};

export async function insertBatch(
  ex: Exec,
  b: {
    id: string;
    userId: string;
    userType: number;
    companyId: string | null;
    intent: string;
    sealChoice: unknown;
    ip: string | null;
    userAgent: string | null;
    now: Date;
    items: { flowId: string; partyId: string }[];
  },
): Promise<void> {
  await ex.execute(sql`INSERT INTO sign_batches (id, user_id, user_type, company_id, status, total, intent,
      seal_choice, ip, user_agent, created_at)
    VALUES (${b.id}, ${b.userId}, ${b.userType}, ${b.companyId}, 'prepared', ${b.items.length}, ${b.intent},
      ${JSON.stringify(b.sealChoice)}::jsonb, ${b.ip}, ${b.userAgent}, ${ts(b.now)})`);
  const values = b.items.map((it, i) => sql`(${b.id}, ${it.flowId}, ${it.partyId}, ${i}, 'pending')`);
  await ex.execute(
    sql`INSERT INTO sign_batch_items (batch_id, flow_id, party_id, ord, status) VALUES ${sql.join(values, sql`, `)}`,
  );
}

/** A batch of the user's; another's is not found. */
export async function findBatch(ex: Exec, id: string, userId?: string): Promise<SignBatchRow | undefined> {
  return camelOne<SignBatchRow>(
    ex,
    userId === undefined
      ? sql`SELECT * FROM sign_batches WHERE id = ${id}`
      : sql`SELECT * FROM sign_batches WHERE id = ${id} AND user_id = ${userId}`,
  );
}

export async function batchItems(ex: Exec, batchId: string): Promise<SignBatchItemRow[]> {
  return camelRows<SignBatchItemRow>(
    ex,
    sql`SELECT i.*, f.title FROM sign_batch_items i JOIN flows f ON f.id = i.flow_id
        WHERE i.batch_id = ${batchId} ORDER BY i.ord`,
  );
}

export async function setCodeSent(ex: Exec, batchId: string, at: Date): Promise<void> {
  await ex.execute(sql`UPDATE sign_batches SET code_sent_at = ${ts(at)} WHERE id = ${batchId}`);
}

/** prepared -> running, once: false when the batch was started before. */
export async function startBatch(ex: Exec, batchId: string, now: Date): Promise<boolean> {
  const r = await camelOne<{ id: string }>(
    ex,
    sql`UPDATE sign_batches SET status = 'running', proven_at = ${ts(now)}
        WHERE id = ${batchId} AND status = 'prepared' RETURNING id`,
  );
  return r !== undefined;
}

/**
 * Claims the next item nobody is signing (pending, and unclaimed or its claim past): held until `until`. One
 * conditional UPDATE, so two workers never hold the same item.
 */
export async function claimItem(
  ex: Exec,
  batchId: string,
  now: Date,
  until: Date,
): Promise<SignBatchItemRow | undefined> {
  return camelOne<SignBatchItemRow>(
    ex,
    sql`UPDATE sign_batch_items i SET claimed_until = ${ts(until)}, attempts = i.attempts + 1
        FROM flows f
        WHERE f.id = i.flow_id AND (i.batch_id, i.party_id) = (
          SELECT batch_id, party_id FROM sign_batch_items
          WHERE batch_id = ${batchId} AND status = 'pending'
            AND (claimed_until IS NULL OR claimed_until <= ${ts(now)})
          ORDER BY ord LIMIT 1 FOR UPDATE SKIP LOCKED)
        AND i.status = 'pending' AND (i.claimed_until IS NULL OR i.claimed_until <= ${ts(now)})
        RETURNING i.*, f.title`,
  );
}

/** The item's result, once (a pending item only), counted on the batch in the same transaction. */
export async function finishItem(
  ex: Exec,
  batchId: string,
  partyId: string,
  result: { status: 'signed' | 'failed'; error: unknown },
  now: Date,
): Promise<void> {
  const done = await camelOne<{ partyId: string }>(
    ex,
    sql`UPDATE sign_batch_items SET status = ${result.status}, error = ${result.error === null ? null : JSON.stringify(result.error)}::jsonb,
          finished_at = ${ts(now)}, claimed_until = NULL
        WHERE batch_id = ${batchId} AND party_id = ${partyId} AND status = 'pending' RETURNING party_id`,
  );
  if (!done) return;
  await ex.execute(
    result.status === 'signed'
      ? sql`UPDATE sign_batches SET signed = signed + 1 WHERE id = ${batchId}`
      : sql`UPDATE sign_batches SET failed = failed + 1 WHERE id = ${batchId}`,
  );
}

/** The latest claim still running on the batch's pending items (a worker that may have died), if any. */
export async function pendingClaimEnd(ex: Exec, batchId: string): Promise<Date | null> {
  const r = await camelOne<{ until: Date | string | null; n: number }>(
    ex,
    sql`SELECT max(claimed_until) AS until, count(*)::int AS n FROM sign_batch_items
        WHERE batch_id = ${batchId} AND status = 'pending'`,
  );
  if (!r || r.n === 0) return null;
  return r.until ? new Date(r.until) : new Date(0);
}

/** running -> done when no item is pending. */
export async function finishBatch(ex: Exec, batchId: string, now: Date): Promise<void> {
  await ex.execute(sql`UPDATE sign_batches SET status = 'done', finished_at = ${ts(now)}
      WHERE id = ${batchId} AND status = 'running'
        AND NOT EXISTS (SELECT 1 FROM sign_batch_items WHERE batch_id = ${batchId} AND status = 'pending')`);
}

/** Running batches (for the sweep: a batch whose job was lost is queued again). */
export async function runningBatchIds(ex: Exec): Promise<string[]> {
  const list = await camelRows<{ id: string }>(
    ex,
    sql`SELECT id FROM sign_batches WHERE status = 'running' ORDER BY created_at LIMIT 50`,
  );
  return list.map((r) => r.id);
}
