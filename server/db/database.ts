import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Config } from '../config.ts';
import { jobSchemaPlan } from './job-schema.ts';
import { runMigrations } from './migrate.ts';
import {
  imageFromTemplate,
  isEmptyFolder,
  PGLITE_START_PARAMS,
  seedFromTemplate,
  templateDirFor,
} from './template.ts';
import { WriteSync } from './write-sync.ts';
import { WriteWatch, watchClient } from './write-watch.ts';

/**
 * The query builder every module uses. The same type over both engines: embedded PGlite (default)
 * and PostgreSQL through `pg` (DATABASE_URL). Only the shared PgDatabase surface is used, so a query
 * written once runs on both.
 */
export type Db = PgDatabase<PgQueryResultHKT>;

/** Runs a multi-statement SQL text (no parameters) on one connection: what migrations need. */
export type RawExec = {
  kind: 'pglite' | 'postgres';
  /** Runs `fn` with exclusive use of one connection; `exec` there may hold several statements. */
  withConnection<T>(fn: (exec: (text: string) => Promise<void>, query: RawQuery) => Promise<T>): Promise<T>;
  /**
   * The engine itself, for the job system (server/jobs), which runs its own SQL on its own tables: the
   * embedded PGlite (one connection, shared) or the PostgreSQL URL (pg-boss keeps a small pool of its own).
   */
  engine: { kind: 'pglite'; client: PGlite } | { kind: 'postgres'; url: string };
  close(): Promise<void>;
};
type RawQuery = <R>(text: string, params?: unknown[]) => Promise<R[]>;

/** Connections of a server's pool on PostgreSQL (the job system keeps a few of its own). */
const POOL_SIZE = 10;

const engines = new WeakMap<Db, RawExec>();
const watches = new WeakMap<Db, WriteWatch>();

// pg parses int8 and numeric to strings while PGlite gives numbers; the schema keeps counters in int4 and
// casts count(*) to int, and these parsers make any leftover int8 (e.g. sum()) a number on both engines.
// Values beyond 2^53 do not occur in this product (counters, quantities).
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

// PGlite runs Postgres inside one WebAssembly memory that never shrinks, and initdb writes the server
// defaults into postgresql.conf (shared_buffers = 128MB). Postgres touches its buffer pool as it sets it
// up, so those 128 MB were resident from the first second on, for a data set of a few MB whose files the
// OS caches anyway. 16MB (2048 pages) holds this product's hot tables; maintenance_work_mem bounds what an
// index build in a migration may grow the (never returned) memory by. Command-line settings override the
// data folder's postgresql.conf, so existing folders get them too; PostgreSQL (DATABASE_URL) is untouched.

/** The raw access migrations use, over one PGlite (one connection that serialises its calls). */
export function pgliteRaw(client: PGlite): RawExec {
  return {
    kind: 'pglite',
    // A transaction through exec keeps the one connection.
    withConnection: (fn) =>
      fn(
        async (text) => {
          await client.exec(text);
        },
        async <R>(text: string, params?: unknown[]) => (await client.query<R>(text, params)).rows,
      ),
    engine: { kind: 'pglite', client },
    close: () => client.close(),
  };
}

/** Makes a template data folder at `at` (db/template.ts): initdb, every migration, pg-boss's schema. */
async function buildTemplate(at: string): Promise<void> {
  const fresh = await PGlite.create({ dataDir: at, startParams: PGLITE_START_PARAMS });
  try {
    await runMigrations(pgliteRaw(fresh));
    await fresh.exec(await jobSchemaPlan());
  } finally {
    await fresh.close();
  }
}

let memoryImageOnce: Promise<Blob | null> | undefined;
/** The template's tarball for in-memory databases, read once per process (a Blob can be loaded many times). */
function memoryImage(): Promise<Blob | null> {
  memoryImageOnce ??= imageFromTemplate(templateDirFor(PGLITE_START_PARAMS), buildTemplate, async (at) => {
    const copy = await PGlite.create({ dataDir: at, startParams: PGLITE_START_PARAMS });
    try {
      return await copy.dumpDataDir('none');
    } finally {
      await copy.close();
    }
  });
  return memoryImageOnce;
}

/** Opens the database the config names and, unless told otherwise, brings its schema up to date. */
export async function openDatabase(
  config: Pick<Config, 'database'>,
  options: {
    migrate?: boolean;
    onSyncError?: (err: unknown) => void;
    /**
     * PostgreSQL: open every pool connection before answering (the server does; test apps open theirs as
     * they need them). A server keeps its connections (no idle time-out), so a burst of requests never waits
     * for PostgreSQL to start backends, which costs it several milliseconds of CPU each.
     */
    openPool?: boolean;
    /**
     * The template's copy into the empty data folder, already underway (copyTemplateAhead, started by
     * server/early-start.ts): awaited before the folder is looked at. Should it fail, the folder is still
     * empty and is seeded here as before.
     */
    templateCopy?: Promise<boolean> | null;
  } = {},
): Promise<Db> {
  let db: Db;
  let raw: RawExec;
  const watch = new WriteWatch();
  if (config.database.kind === 'pglite') {
    const dir = config.database.dataDir;
    if (options.templateCopy) await options.templateCopy;
    // A new folder starts as a copy of the ready-made template (db/template.ts): no initdb, no migrations.
    if (dir && options.migrate !== false && isEmptyFolder(dir))
      await seedFromTemplate(dir, templateDirFor(PGLITE_START_PARAMS), buildTemplate);
    if (dir) mkdirSync(dir, { recursive: true });
    // In memory (memory://, the tests): the same template, loaded from its tarball (db/template.ts).
    const image = !dir && options.migrate !== false ? await memoryImage() : null;
    const client = await PGlite.create({
      ...(dir ? { dataDir: dir } : {}),
      ...(image ? { loadDataDir: image } : {}),
      startParams: PGLITE_START_PARAMS,
    });
    db = drizzlePglite({ client: watchClient(client, watch) }) as unknown as Db;
    raw = pgliteRaw(client);
  } else {
    const max = POOL_SIZE;
    // min = max: connections once open stay open (pg's default closes them after 10 s idle).
    const pool = new pg.Pool({ connectionString: config.database.url, max, min: max });
    // An idle client that loses its server emits 'error' on the pool; without a listener that would crash.
    pool.on('error', () => {});
    // Other instances on this PostgreSQL learn of this one's writes, and it of theirs (db/write-sync.ts).
    const sync = new WriteSync({ url: config.database.url, watch, onError: options.onSyncError });
    await sync.start();
    watch.publisher = sync.publish;
    db = drizzleNodePg({ client: watchClient(pool, watch) }) as unknown as Db;
    raw = {
      kind: 'postgres',
      withConnection: async (fn) => {
        const conn = await pool.connect();
        try {
          return await fn(
            async (text) => {
              await conn.query(text);
            },
            async <R>(text: string, params?: unknown[]) =>
              (await conn.query(text, params as unknown[])).rows as R[],
          );
        } finally {
          conn.release();
        }
      },
      engine: { kind: 'postgres', url: config.database.url },
      close: async () => {
        await sync.close();
        await pool.end();
      },
    };
  }
  engines.set(db, raw);
  watches.set(db, watch);
  if (options.migrate !== false) await runMigrations(raw);
  if (options.openPool && raw.kind === 'postgres')
    await Promise.all(Array.from({ length: POOL_SIZE }, () => db.execute(sql`SELECT 1`)));
  return db;
}

/** The engine under a Db (for migrations and tests). */
export function rawOf(db: Db): RawExec {
  const raw = engines.get(db);
  if (!raw) throw new Error('rawOf: this Db was not opened by openDatabase');
  return raw;
}

/** When the data under a Db last changed, per table (for caches of derived data; see write-watch.ts). */
export function writeWatchOf(db: Db): WriteWatch {
  const watch = watches.get(db);
  if (!watch) throw new Error('writeWatchOf: this Db was not opened by openDatabase');
  return watch;
}

export async function closeDatabase(db: Db): Promise<void> {
  const raw = engines.get(db);
  engines.delete(db);
  await raw?.close();
}

/** Rows of a raw SQL query through drizzle, the same shape on both engines. */
export async function queryRows<R extends Record<string, unknown>>(db: Db, query: SQL): Promise<R[]> {
  const result = (await db.execute(query)) as unknown as { rows: R[] };
  return result.rows;
}
