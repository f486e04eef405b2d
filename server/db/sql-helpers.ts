// Generic helpers for raw SQL through drizzle's `execute`, the same on PGlite and PostgreSQL. Only queries files
// (a module's queries.ts or queries/) run raw SQL; they use these to read rows back.
import type { SQL } from 'drizzle-orm';
import type { Db } from './database.ts';

/** The database or a transaction of it: both run raw SQL the same way. */
export type Exec = Pick<Db, 'execute'>;

/** Rows of a raw SQL query, the same shape on PGlite and PostgreSQL. */
export async function rows<R>(ex: Exec, query: SQL): Promise<R[]> {
  const result = (await ex.execute(query)) as unknown as { rows: R[] };
  return result.rows;
}

export async function one<R>(ex: Exec, query: SQL): Promise<R | undefined> {
  return (await rows<R>(ex, query))[0];
}

/** A column name as a field of the TypeScript side: `created_at` -> `createdAt`. */
const camel = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * Rows of a raw SQL query with their column names in camelCase (`owner_id` -> `ownerId`; values untouched):
 * what a queries file answers, so that services never read a snake_case column.
 */
export async function camelRows<R>(ex: Exec, query: SQL): Promise<R[]> {
  return (await rows<Record<string, unknown>>(ex, query)).map(
    (row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [camel(k), v])) as R,
  );
}

export async function camelOne<R>(ex: Exec, query: SQL): Promise<R | undefined> {
  return (await camelRows<R>(ex, query))[0];
}

/** A Date as a timestamptz parameter (both drivers accept the ISO text). */
export const ts = (d: Date) => d.toISOString();

/** A timestamptz column as read back (pg and PGlite give Date; text is tolerated). */
export const dateOf = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
export const isoOrNull = (v: unknown): string | null =>
  v === null || v === undefined ? null : dateOf(v).toISOString();

/** A jsonb column as read back (objects on both drivers; text is tolerated). */
export const jsonOf = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/** A LIKE pattern matching the keyword anywhere, case-insensitively (compare with lower(column)); `\`, `%`
 * and `_` in the keyword match themselves. */
export const likePattern = (keyword: string) =>
  `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
