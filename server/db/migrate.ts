import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RawExec } from './database.ts';

/**
 * Numbered SQL migrations: server/db/migrations/NNN_name.sql, applied in name order, each once, each in
 * its own transaction together with its row in schema_migrations. 001-009 are the foundation's;
 * other domains take the next numbers (010_pki.sql, ...).
 */
export const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');
const MIGRATION_NAME = /^(\d{3})_[a-z0-9_-]+\.sql$/;
// Any constant: serialises migrations of several instances starting at once on one PostgreSQL.
const ADVISORY_LOCK_KEY = 7_342_001;

export function listMigrations(dir = MIGRATIONS_DIR): { name: string; sql: string }[] {
  const names = readdirSync(dir)
    .filter((n) => n.endsWith('.sql'))
    .sort();
  const seen = new Set<string>();
  return names.map((name) => {
    const m = MIGRATION_NAME.exec(name);
    if (!m) throw new Error(`migration file name must look like 001_name.sql: ${name}`);
    if (seen.has(m[1])) throw new Error(`two migrations share the number ${m[1]}`);
    seen.add(m[1]);
    return { name, sql: readFileSync(join(dir, name), 'utf8') };
  });
}

/** Applies pending migrations; returns the names applied now. */
export async function runMigrations(raw: RawExec, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = listMigrations(dir);
  return raw.withConnection(async (exec, query) => {
    // Asked first: even when the table exists, CREATE TABLE IF NOT EXISTS is a DDL statement that costs
    // PGlite ~50-100 ms at every start, the lookup ~10 ms.
    const [{ found }] = await query<{ found: string | null }>(
      "SELECT to_regclass('schema_migrations')::text AS found",
    );
    if (!found)
      await exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
    if (raw.kind === 'postgres') await query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
    try {
      const done = new Set(
        (await query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
      );
      const applied: string[] = [];
      for (const m of migrations) {
        if (done.has(m.name)) continue;
        try {
          await exec('BEGIN');
          await exec(m.sql);
          await query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
          await exec('COMMIT');
        } catch (err) {
          await exec('ROLLBACK').catch(() => {});
          throw new Error(`migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
        }
        applied.push(m.name);
      }
      return applied;
    } finally {
      if (raw.kind === 'postgres') await query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]);
    }
  });
}
