import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Account } from '../../lib/account.ts';
import { camelOne, camelRows, type Exec, likePattern, one, rows, ts } from '../../db/sql-helpers.ts';

// SQL of the signing configurations. Every query takes the caller's account and is scoped by it.

export type SignConfigRecord = {
  id: string;
  ownerType: number;
  ownerId: string;
  name: string;
  description: string | null;
  steps: unknown;
  createdBy: string;
  createdAt: unknown;
  updatedAt: unknown;
};

const SELECT = sql`SELECT c.* FROM sign_configs c`;

export async function findConfig(
  ex: Exec,
  account: Account,
  id: string,
): Promise<SignConfigRecord | undefined> {
  return camelOne<SignConfigRecord>(
    ex,
    sql`${SELECT} WHERE c.id = ${id} AND c.owner_type = ${account.ownerType} AND c.owner_id = ${account.ownerId}
        AND c.deleted_at IS NULL`,
  );
}

export async function insertConfig(
  ex: Exec,
  account: Account,
  v: { name: string; description: string | null; steps: unknown; createdBy: string; now: Date },
): Promise<string> {
  const id = randomUUID();
  await ex.execute(sql`
    INSERT INTO sign_configs (id, owner_type, owner_id, name, description, steps, created_by, created_at, updated_at)
    VALUES (${id}, ${account.ownerType}, ${account.ownerId}, ${v.name}, ${v.description},
      ${JSON.stringify(v.steps)}::jsonb, ${v.createdBy}, ${ts(v.now)}, ${ts(v.now)})`);
  return id;
}

/** True when the row of the account was updated. */
export async function updateConfig(
  ex: Exec,
  account: Account,
  id: string,
  v: { name: string; description: string | null; steps: unknown; now: Date },
): Promise<boolean> {
  const done = await rows(
    ex,
    sql`UPDATE sign_configs SET name = ${v.name}, description = ${v.description},
          steps = ${JSON.stringify(v.steps)}::jsonb, updated_at = ${ts(v.now)}
        WHERE id = ${id} AND owner_type = ${account.ownerType} AND owner_id = ${account.ownerId}
          AND deleted_at IS NULL RETURNING id`,
  );
  return done.length === 1;
}

export async function deleteConfig(ex: Exec, account: Account, id: string, now: Date): Promise<boolean> {
  const done = await rows(
    ex,
    sql`UPDATE sign_configs SET deleted_at = ${ts(now)}
        WHERE id = ${id} AND owner_type = ${account.ownerType} AND owner_id = ${account.ownerId}
          AND deleted_at IS NULL RETURNING id`,
  );
  return done.length === 1;
}

export async function listConfigs(
  ex: Exec,
  account: Account,
  f: { pageNum: number; pageSize: number; keyword?: string },
): Promise<{ list: SignConfigRecord[]; total: number }> {
  const conds = [
    sql`c.owner_type = ${account.ownerType}`,
    sql`c.owner_id = ${account.ownerId}`,
    sql`c.deleted_at IS NULL`,
  ];
  if (f.keyword) conds.push(sql`lower(c.name) LIKE ${likePattern(f.keyword)}`);
  const where = sql.join(conds, sql` AND `);
  const total =
    (await one<{ n: number }>(ex, sql`SELECT count(*)::int AS n FROM sign_configs c WHERE ${where}`))?.n ?? 0;
  const list = await camelRows<SignConfigRecord>(
    ex,
    sql`${SELECT} WHERE ${where} ORDER BY c.updated_at DESC, c.id LIMIT ${f.pageSize}
        OFFSET ${(f.pageNum - 1) * f.pageSize}`,
  );
  return { list, total };
}

/** The names of the live (not deleted) configurations among `ids` (templates show their configuration's name). */
export async function liveConfigNames(ex: Exec, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const found = await rows<{ id: string; name: string }>(
    ex,
    sql`SELECT id, name FROM sign_configs WHERE deleted_at IS NULL AND id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  return new Map(found.map((r) => [r.id, r.name]));
}
