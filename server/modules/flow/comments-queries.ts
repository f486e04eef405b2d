// SQL of the comments on a flow (issue 29): `flow_comments` (migration 161), and the flow's revision
// (`flows.revision`, migration 160) a comment names. Rows come back camelCase. Nothing is ever deleted: a
// thread's root is resolved and reopened by a conditional UPDATE.
import { sql } from 'drizzle-orm';
import { type Exec, camelOne, camelRows, one, ts } from '../../db/sql-helpers.ts';

export type CommentRow = {
  id: string;
  flowId: string;
  threadId: string;
  parentId: string | null;
  revision: number;
  documentId: string | null;
  page: number | null;
  x: number | null;
  y: number | null;
  authorRole: 'launcher' | 'party';
  authorPartyId: string | null;
  authorUserId: string | null;
  authorName: string;
  body: string;
  createdAt: unknown;
  resolvedAt: unknown;
  resolvedBy: string | null;
};

export type NewComment = Omit<CommentRow, 'createdAt' | 'resolvedAt' | 'resolvedBy'>;

/** The flow's revision now (1 at launch; a revised upload moves it on). */
export async function revisionOf(ex: Exec, flowId: string): Promise<number> {
  const r = await one<{ revision: number }>(ex, sql`SELECT revision FROM flows WHERE id = ${flowId}`);
  return Number(r?.revision ?? 1);
}

export async function insertComment(ex: Exec, c: NewComment, now: Date): Promise<void> {
  await ex.execute(sql`
    INSERT INTO flow_comments (id, flow_id, thread_id, parent_id, revision, document_id, page, x, y, author_role,
      author_party_id, author_user_id, author_name, body, created_at)
    VALUES (${c.id}, ${c.flowId}, ${c.threadId}, ${c.parentId}, ${c.revision}, ${c.documentId}, ${c.page}, ${c.x},
      ${c.y}, ${c.authorRole}, ${c.authorPartyId}, ${c.authorUserId}, ${c.authorName}, ${c.body}, ${ts(now)})`);
}

/** Every comment of a flow, oldest first. */
export async function commentsOfFlow(ex: Exec, flowId: string): Promise<CommentRow[]> {
  return camelRows<CommentRow>(
    ex,
    sql`SELECT * FROM flow_comments WHERE flow_id = ${flowId} ORDER BY created_at, id`,
  );
}

/** The comments of one thread of the flow (root first); empty for a thread of another flow. */
export async function commentsOfThread(ex: Exec, flowId: string, threadId: string): Promise<CommentRow[]> {
  return camelRows<CommentRow>(
    ex,
    sql`SELECT * FROM flow_comments WHERE flow_id = ${flowId} AND thread_id = ${threadId}
        ORDER BY (parent_id IS NOT NULL), created_at, id`,
  );
}

/** A root of the flow, by its id. */
export async function findRoot(ex: Exec, flowId: string, threadId: string): Promise<CommentRow | undefined> {
  return camelOne<CommentRow>(
    ex,
    sql`SELECT * FROM flow_comments WHERE flow_id = ${flowId} AND id = ${threadId} AND parent_id IS NULL`,
  );
}

/** Resolves or reopens a thread; answers whether it changed (false: it was so already). */
export async function setResolved(
  ex: Exec,
  flowId: string,
  threadId: string,
  resolved: { at: Date; by: string } | null,
): Promise<boolean> {
  const changed = resolved
    ? await one(
        ex,
        sql`UPDATE flow_comments SET resolved_at = ${ts(resolved.at)}, resolved_by = ${resolved.by}
            WHERE flow_id = ${flowId} AND id = ${threadId} AND parent_id IS NULL AND resolved_at IS NULL
            RETURNING id`,
      )
    : await one(
        ex,
        sql`UPDATE flow_comments SET resolved_at = NULL, resolved_by = NULL
            WHERE flow_id = ${flowId} AND id = ${threadId} AND parent_id IS NULL AND resolved_at IS NOT NULL
            RETURNING id`,
      );
  return changed !== undefined;
}
