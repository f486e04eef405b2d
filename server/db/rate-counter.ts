import { sql } from 'drizzle-orm';
import { type Db, queryRows } from './database.ts';

/**
 * Fixed-window counter in the database (table rate_counters), so that a limit holds across instances.
 * `hit` adds one and returns the count in the current window including this hit.
 */
export async function hitCounter(db: Db, key: string, windowMs: number, now: Date): Promise<number> {
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const rows = await queryRows<{ count: number }>(
    db,
    sql`INSERT INTO rate_counters (key, window_start, count) VALUES (${key}, ${windowStart.toISOString()}, 1)
        ON CONFLICT (key, window_start) DO UPDATE SET count = rate_counters.count + 1
        RETURNING count`,
  );
  return Number(rows[0].count);
}

/** The count in the current window without adding to it. */
export async function peekCounter(db: Db, key: string, windowMs: number, now: Date): Promise<number> {
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const rows = await queryRows<{ count: number }>(
    db,
    sql`SELECT count FROM rate_counters WHERE key = ${key} AND window_start = ${windowStart.toISOString()}`,
  );
  return rows.length ? Number(rows[0].count) : 0;
}

/** Forgets a key's counts (e.g. failed logins after a successful one). */
export async function resetCounter(db: Db, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM rate_counters WHERE key = ${key}`);
}

/** Old windows are useless; called now and then so the table stays small. */
export async function pruneCounters(db: Db, before: Date): Promise<void> {
  await db.execute(sql`DELETE FROM rate_counters WHERE window_start < ${before.toISOString()}`);
}
