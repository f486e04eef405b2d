import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows, rawOf } from '#server/db/database.ts';
import { listMigrations, runMigrations } from '#server/db/migrate.ts';
import { hitCounter } from '#server/db/rate-counter.ts';
import { LocalBlobStore } from '#server/storage/local-blob-store.ts';
import { appForFile } from './helper.ts';

const t = appForFile();

describe('database', () => {
  it('runs on the engine the environment names', () => {
    expect(rawOf(t.db).kind).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  });

  it('applied every migration once, and a second run applies none', async () => {
    const rows = await queryRows<{ name: string }>(
      t.db,
      sql`SELECT name FROM schema_migrations ORDER BY name`,
    );
    expect(rows.map((r) => r.name)).toEqual(listMigrations().map((m) => m.name));
    expect(await runMigrations(rawOf(t.db))).toEqual([]);
  });

  it('rolls back a failing migration and names it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mig-'));
    try {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(join(dir, '901_ok.sql'), 'CREATE TABLE mig_probe_ok (id int);');
      writeFileSync(
        join(dir, '902_bad.sql'),
        'CREATE TABLE mig_probe_bad (id int); SELECT no_such_function();',
      );
      await expect(runMigrations(rawOf(t.db), dir)).rejects.toThrow(/902_bad\.sql/);
      const tables = await queryRows<{ n: number }>(
        t.db,
        sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('mig_probe_ok', 'mig_probe_bad')`,
      );
      expect(tables[0].n).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sends a hot statement as a prepared one on PostgreSQL, and plans it afresh once its columns change', async () => {
    const isPostgres = rawOf(t.db).kind === 'postgres';
    await t.db.execute(sql`CREATE TABLE prepared_probe (id int)`);
    await t.db.execute(sql`INSERT INTO prepared_probe VALUES (1)`);
    const probe = (db: typeof t.db) => queryRows(db, sql`SELECT * FROM prepared_probe WHERE id = ${1}`);
    const preparedHere = (db: typeof t.db) =>
      queryRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE '%FROM prepared_probe WHERE%'`,
      );
    // One transaction: one connection, whose prepared statements pg_prepared_statements lists.
    await t.db.transaction(async (tx) => {
      for (let i = 0; i < 6; i++) expect(await probe(tx)).toEqual([{ id: 1 }]);
      expect((await preparedHere(tx))[0].n).toBe(isPostgres ? 1 : 0);
    });
    if (!isPostgres) return;
    // Its columns change (another instance's migration): PostgreSQL refuses the prepared statement once...
    await expect(
      t.db.transaction(async (tx) => {
        await tx.execute(sql`ALTER TABLE prepared_probe ADD COLUMN note text`);
        await probe(tx);
      }),
    ).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/cached plan must not change result type/) },
    });
    // ...and from then on the text goes unprepared, on every connection, with the new columns.
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`ALTER TABLE prepared_probe ADD COLUMN note text`);
      expect(await probe(tx)).toEqual([{ id: 1, note: null }]);
    });
  });

  it('counts come back as numbers on both engines', async () => {
    const rows = await queryRows<{ a: unknown; b: unknown }>(
      t.db,
      sql`SELECT count(*)::int AS a, count(*) AS b FROM users`,
    );
    expect(typeof rows[0].a).toBe('number');
    expect(typeof rows[0].b).toBe('number');
  });

  it('rate counters count per window', async () => {
    const now = t.clock.now();
    expect(await hitCounter(t.db, 'probe', 60_000, now)).toBe(1);
    expect(await hitCounter(t.db, 'probe', 60_000, now)).toBe(2);
    expect(await hitCounter(t.db, 'probe', 60_000, new Date(now.getTime() + 60_000))).toBe(1);
  });
});

describe('local blob store', () => {
  const root = mkdtempSync(join(tmpdir(), 'blobs-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const store = new LocalBlobStore(root);

  it('stores by SHA-256, reads back the same bytes, dedupes, deletes', async () => {
    const bytes = new TextEncoder().encode('hello blob');
    const key = await store.put(bytes);
    expect(key).toBe('e997afd18e5f6be004fc193aed2c90291e68ab2c7599a62538c935b7fca6ab0f');
    expect(readdirSync(join(root, key.slice(0, 2)))).toEqual([key]);
    expect(await store.put(bytes)).toBe(key);
    expect(await store.has(key)).toBe(true);
    expect(Buffer.from((await store.get(key))!).toString()).toBe('hello blob');
    expect(readdirSync(root).filter((n) => n.startsWith('.tmp'))).toEqual([]);
    await store.delete(key);
    expect(await store.has(key)).toBe(false);
    expect(await store.get(key)).toBeNull();
  });

  it('refuses keys that are not SHA-256 hex (no path escapes)', async () => {
    await expect(store.get('../../etc/passwd')).rejects.toThrow(/not a blob key/);
  });
});
