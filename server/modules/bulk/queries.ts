import { sql } from 'drizzle-orm';
import type { Account } from '../../lib/account.ts';
import { type Exec, camelOne, camelRows, one, rows, ts } from '../../db/sql-helpers.ts';

// SQL of bulk sending (migration 157): batches scoped by their account; rows claimed by conditional UPDATEs.

export type BulkRecord = {
  id: string;
  ownerType: number;
  ownerId: string;
  templateId: string;
  createdBy: string;
  viaKind: string;
  viaId: string;
  fileName: string;
  status: 'checked' | 'sending' | 'done';
  total: number;
  good: number;
  sent: number;
  failed: number;
  createdAt: unknown;
  startedAt: unknown;
  finishedAt: unknown;
};

export type BulkRowRecord = {
  bulkId: string;
  rowNo: number;
  data: unknown;
  status: 'pending' | 'sending' | 'sent' | 'failed' | 'skipped';
  problems: unknown;
  draftId: string | null;
  flowId: string | null;
  error: unknown;
};

const scoped = (a: Account) => sql`owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}`;

export async function insertBulk(
  ex: Exec,
  v: Omit<BulkRecord, 'status' | 'sent' | 'failed' | 'createdAt' | 'startedAt' | 'finishedAt'> & {
    now: Date;
  },
  lines: { rowNo: number; data: unknown; problems: unknown[] }[],
): Promise<void> {
  await ex.execute(
    sql`INSERT INTO bulk_sends (id, owner_type, owner_id, template_id, created_by, via_kind, via_id, file_name,
          status, total, good, created_at)
        VALUES (${v.id}, ${v.ownerType}, ${v.ownerId}, ${v.templateId}, ${v.createdBy}, ${v.viaKind}, ${v.viaId},
          ${v.fileName}, 'checked', ${v.total}, ${v.good}, ${ts(v.now)})`,
  );
  for (let i = 0; i < lines.length; i += 250) {
    const chunk = lines.slice(i, i + 250).map(
      (l) =>
        sql`(${v.id}, ${l.rowNo}, ${JSON.stringify(l.data)}::jsonb, ${l.problems.length ? 'skipped' : 'pending'},
          ${l.problems.length ? JSON.stringify(l.problems) : null}::jsonb)`,
    );
    await ex.execute(
      sql`INSERT INTO bulk_send_rows (bulk_id, row_no, data, status, problems) VALUES ${sql.join(chunk, sql`, `)}`,
    );
  }
}

export function findBulk(ex: Exec, account: Account, id: string): Promise<BulkRecord | undefined> {
  return camelOne<BulkRecord>(ex, sql`SELECT * FROM bulk_sends WHERE id = ${id} AND ${scoped(account)}`);
}

/** A batch by id alone: for its job, which acts for the batch's own account. */
export function bulkById(ex: Exec, id: string): Promise<BulkRecord | undefined> {
  return camelOne<BulkRecord>(ex, sql`SELECT * FROM bulk_sends WHERE id = ${id}`);
}

export async function listBulks(
  ex: Exec,
  account: Account,
  page: { pageNum: number; pageSize: number },
): Promise<{ list: BulkRecord[]; total: number }> {
  const list = await camelRows<BulkRecord>(
    ex,
    sql`SELECT * FROM bulk_sends WHERE ${scoped(account)} ORDER BY created_at DESC, id
        LIMIT ${page.pageSize} OFFSET ${(page.pageNum - 1) * page.pageSize}`,
  );
  const n = await one<{ n: number }>(
    ex,
    sql`SELECT count(*)::int AS n FROM bulk_sends WHERE ${scoped(account)}`,
  );
  return { list, total: Number(n?.n ?? 0) };
}

/** checked -> sending, once; answers whether this call started it. */
export async function markStarted(ex: Exec, account: Account, id: string, now: Date): Promise<boolean> {
  const r = await rows(
    ex,
    sql`UPDATE bulk_sends SET status = 'sending', started_at = ${ts(now)}
        WHERE id = ${id} AND ${scoped(account)} AND status = 'checked' RETURNING id`,
  );
  return r.length === 1;
}

export async function rowsOf(
  ex: Exec,
  bulkId: string,
  f: { pageNum: number; pageSize: number; status?: string },
): Promise<{ list: BulkRowRecord[]; total: number }> {
  const where = f.status ? sql`bulk_id = ${bulkId} AND status = ${f.status}` : sql`bulk_id = ${bulkId}`;
  const list = await camelRows<BulkRowRecord>(
    ex,
    sql`SELECT * FROM bulk_send_rows WHERE ${where} ORDER BY row_no
        LIMIT ${f.pageSize} OFFSET ${(f.pageNum - 1) * f.pageSize}`,
  );
  const n = await one<{ n: number }>(ex, sql`SELECT count(*)::int AS n FROM bulk_send_rows WHERE ${where}`);
  return { list, total: Number(n?.n ?? 0) };
}

export function allRowsOf(ex: Exec, bulkId: string): Promise<BulkRowRecord[]> {
  return camelRows<BulkRowRecord>(
    ex,
    sql`SELECT * FROM bulk_send_rows WHERE bulk_id = ${bulkId} ORDER BY row_no`,
  );
}

/**
 * Claims the next row to send: a pending one, or one whose sender's lease ran out (a killed server). The
 * conditional UPDATE makes one sender own it until `leaseUntil`.
 */
export function claimNextRow(ex: Exec, bulkId: string, now: Date, leaseUntil: Date) {
  return camelOne<BulkRowRecord>(
    ex,
    sql`UPDATE bulk_send_rows SET status = 'sending', lease_until = ${ts(leaseUntil)}
        WHERE bulk_id = ${bulkId} AND row_no = (
          SELECT row_no FROM bulk_send_rows
          WHERE bulk_id = ${bulkId}
            AND (status = 'pending' OR (status = 'sending' AND lease_until < ${ts(now)}))
          ORDER BY row_no LIMIT 1 FOR UPDATE SKIP LOCKED)
          AND (status = 'pending' OR (status = 'sending' AND lease_until < ${ts(now)}))
        RETURNING *`,
  );
}

/** Remembers the row's draft (once: a second prepare's draft is not kept). */
export async function setDraft(ex: Exec, bulkId: string, rowNo: number, draftId: string): Promise<boolean> {
  const r = await rows(
    ex,
    sql`UPDATE bulk_send_rows SET draft_id = ${draftId}
        WHERE bulk_id = ${bulkId} AND row_no = ${rowNo} AND draft_id IS NULL RETURNING row_no`,
  );
  return r.length === 1;
}

/** The row's outcome, with the batch's counters, in one statement each inside `ex` (a transaction). */
export async function finishRow(
  ex: Exec,
  bulkId: string,
  rowNo: number,
  outcome: { flowId: string } | { error: unknown },
): Promise<boolean> {
  const sent = 'flowId' in outcome;
  const r = await rows(
    ex,
    sent
      ? sql`UPDATE bulk_send_rows SET status = 'sent', flow_id = ${outcome.flowId}, lease_until = NULL
            WHERE bulk_id = ${bulkId} AND row_no = ${rowNo} AND status = 'sending' RETURNING row_no`
      : sql`UPDATE bulk_send_rows SET status = 'failed', error = ${JSON.stringify(outcome.error)}::jsonb,
              lease_until = NULL
            WHERE bulk_id = ${bulkId} AND row_no = ${rowNo} AND status = 'sending' RETURNING row_no`,
  );
  if (r.length !== 1) return false;
  await ex.execute(
    sent
      ? sql`UPDATE bulk_sends SET sent = sent + 1 WHERE id = ${bulkId}`
      : sql`UPDATE bulk_sends SET failed = failed + 1 WHERE id = ${bulkId}`,
  );
  return true;
}

/** Every row still waiting fails with `error` (the quota ran out). */
export async function failPending(ex: Exec, bulkId: string, error: unknown): Promise<number> {
  const r = await rows(
    ex,
    sql`UPDATE bulk_send_rows SET status = 'failed', error = ${JSON.stringify(error)}::jsonb
        WHERE bulk_id = ${bulkId} AND status = 'pending' RETURNING row_no`,
  );
  if (r.length)
    await ex.execute(sql`UPDATE bulk_sends SET failed = failed + ${r.length} WHERE id = ${bulkId}`);
  return r.length;
}

/** Rows not finished yet (pending or being sent). */
export async function openRowCount(ex: Exec, bulkId: string): Promise<number> {
  const n = await one<{ n: number }>(
    ex,
    sql`SELECT count(*)::int AS n FROM bulk_send_rows WHERE bulk_id = ${bulkId} AND status IN ('pending', 'sending')`,
  );
  return Number(n?.n ?? 0);
}

/** sending -> done, once; answers whether this call finished it. */
export async function markDone(ex: Exec, bulkId: string, now: Date): Promise<boolean> {
  const r = await rows(
    ex,
    sql`UPDATE bulk_sends SET status = 'done', finished_at = ${ts(now)}
        WHERE id = ${bulkId} AND status = 'sending' RETURNING id`,
  );
  return r.length === 1;
}

/** Batches still sending. */
export async function sendingBulkIds(ex: Exec): Promise<string[]> {
  const r = await rows<{ id: string }>(ex, sql`SELECT id FROM bulk_sends WHERE status = 'sending'`);
  return r.map((x) => x.id);
}
