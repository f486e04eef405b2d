import { sql } from 'drizzle-orm';
import { type Db, queryRows } from './database.ts';

/**
 * Fixed-window counter in the database (table rate_counters), so that a limit holds across instances.
 * `hit` adds one and returns the count in the current window including this hit. Up to twice the limit fits
 * around a window's boundary: limits against guessing use hitSlidingCounter.
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

/** How many buckets a sliding window is kept in (hitSlidingCounter). */
const SLIDING_BUCKETS = 15;

/**
 * Sliding-window counter (table rate_counters, like hitCounter, so that a limit holds across instances):
 * adds one hit and returns the hits of the last `windowMs`, this one included. A fixed window forgets
 * everything at its boundary, so twice its limit fits around one; here no span of `windowMs` ever holds
 * more than the limit.
 *
 * The hits are kept in SLIDING_BUCKETS buckets per window (rows keyed by the bucket's start): at most 16 rows
 * per key, whatever the traffic. Every bucket that overlaps the last `windowMs` counts in full, so the count
 * covers every hit of the last `windowMs` and may include up to one bucket (windowMs / 15) of older ones:
 * it errs on the strict side, and a key is clear `windowMs` plus one bucket after its last hit.
 *
 * One statement: the current bucket's upsert is atomic, so concurrent hits each see a distinct count and
 * at most `limit` of them see a count within the limit. Works alike on PGlite and PostgreSQL.
 */
export async function hitSlidingCounter(db: Db, key: string, windowMs: number, now: Date): Promise<number> {
  const bucketMs = Math.max(1, Math.ceil(windowMs / SLIDING_BUCKETS));
  const bucketStart = new Date(Math.floor(now.getTime() / bucketMs) * bucketMs).toISOString();
  // A bucket [start, start + bucketMs) overlaps (now - windowMs, now] when start > now - windowMs - bucketMs.
  const after = new Date(now.getTime() - windowMs - bucketMs).toISOString();
  const rows = await queryRows<{ count: number }>(
    db,
    sql`WITH hit AS (
          INSERT INTO rate_counters (key, window_start, count) VALUES (${key}, ${bucketStart}, 1)
          ON CONFLICT (key, window_start) DO UPDATE SET count = rate_counters.count + 1
          RETURNING count
        )
        SELECT ((SELECT count FROM hit) + COALESCE((
          SELECT sum(count) FROM rate_counters
          WHERE key = ${key} AND window_start > ${after} AND window_start <> ${bucketStart}
        ), 0))::int AS count`,
  );
  return Number(rows[0].count);
}

/** Forgets a key's counts (e.g. failed logins after a successful one). */
export async function resetCounter(db: Db, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM rate_counters WHERE key = ${key}`);
}

/** Old windows are useless; called now and then so the table stays small. */
export async function pruneCounters(db: Db, before: Date): Promise<void> {
  await db.execute(sql`DELETE FROM rate_counters WHERE window_start < ${before.toISOString()}`);
}
