// SQL of launch drafts (issue 29): `launch_drafts` (migration 167). Every statement is scoped to the owner
// account AND the user: a draft is one user's own.
import { sql } from 'drizzle-orm';
import { type Exec, camelOne, camelRows, ts } from '../../db/sql-helpers.ts';
import type { Account } from '../../lib/account.ts';

export type DraftRow = {
  id: string;
  title: string;
  form: unknown;
  documentIds: unknown;
  updatedAt: unknown;
};
type Owner = { account: Account; userId: string };
const mine = (o: Owner) =>
  sql`owner_type = ${o.account.ownerType} AND owner_id = ${o.account.ownerId} AND user_id = ${o.userId}`;

export async function insertDraft(
  ex: Exec,
  o: Owner,
  d: { id: string; title: string; form: object; documentIds: string[] },
  now: Date,
): Promise<DraftRow> {
  return (await camelOne<DraftRow>(
    ex,
    sql`INSERT INTO launch_drafts (id, owner_type, owner_id, user_id, title, form, document_ids, created_at, updated_at)
        VALUES (${d.id}, ${o.account.ownerType}, ${o.account.ownerId}, ${o.userId}, ${d.title},
          ${JSON.stringify(d.form)}::jsonb, ${JSON.stringify(d.documentIds)}::jsonb, ${ts(now)}, ${ts(now)})
        RETURNING id, title, form, document_ids, updated_at`,
  ))!;
}

/** Replaces a draft of the owner; undefined when it is not theirs. */
export async function updateDraft(
  ex: Exec,
  o: Owner,
  d: { id: string; title: string; form: object; documentIds: string[] },
  now: Date,
): Promise<DraftRow | undefined> {
  return camelOne<DraftRow>(
    ex,
    sql`UPDATE launch_drafts SET title = ${d.title}, form = ${JSON.stringify(d.form)}::jsonb,
          document_ids = ${JSON.stringify(d.documentIds)}::jsonb, updated_at = ${ts(now)}
        WHERE id = ${d.id} AND ${mine(o)}
        RETURNING id, title, form, document_ids, updated_at`,
  );
}

export async function findDraft(ex: Exec, o: Owner, id: string): Promise<DraftRow | undefined> {
  return camelOne<DraftRow>(
    ex,
    sql`SELECT id, title, form, document_ids, updated_at FROM launch_drafts WHERE id = ${id} AND ${mine(o)}`,
  );
}

export async function listDrafts(ex: Exec, o: Owner): Promise<DraftRow[]> {
  return camelRows<DraftRow>(
    ex,
    sql`SELECT id, title, '{}'::jsonb AS form, document_ids, updated_at FROM launch_drafts WHERE ${mine(o)}
        ORDER BY updated_at DESC LIMIT 100`,
  );
}

/** Deletes a draft of the owner; whether one was deleted. */
export async function deleteDraft(ex: Exec, o: Owner, id: string): Promise<boolean> {
  const gone = await camelRows<{ id: string }>(
    ex,
    sql`DELETE FROM launch_drafts WHERE id = ${id} AND ${mine(o)} RETURNING id`,
  );
  return gone.length > 0;
}

/** After a launch: the owner's drafts that use any of the launched documents are done. */
export async function deleteDraftsUsing(ex: Exec, o: Owner, documentIds: string[]): Promise<void> {
  if (documentIds.length === 0) return;
  await ex.execute(
    sql`DELETE FROM launch_drafts WHERE ${mine(o)} AND document_ids ?| ${`{${documentIds.join(',')}}`}::text[]`,
  );
}

/** How many drafts the owner keeps. */
export async function countDrafts(ex: Exec, o: Owner): Promise<number> {
  const r = await camelOne<{ n: number }>(
    ex,
    sql`SELECT count(*)::integer AS n FROM launch_drafts WHERE ${mine(o)}`,
  );
  return r?.n ?? 0;
}
