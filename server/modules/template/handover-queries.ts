// SQL of a member's hand-over (issue 27) for templates: the company's live templates `from` created.
import { sql } from 'drizzle-orm';
import { camelOne, camelRows } from '../../db/sql-helpers.ts';
import type { MemberHandover, MemberHandoverAnswer } from '../company/index.ts';

/**
 * The template module's part of a member's hand-over (company's memberHandover hook): the company's templates
 * `from` created become `to`'s (created_by), in the hand-over's transaction; a dry run only counts.
 */
export async function handOverTemplates(e: MemberHandover): Promise<MemberHandoverAnswer> {
  const mine = sql`owner_type = 1 AND owner_id = ${e.companyId} AND created_by = ${e.fromUserId}
    AND deleted_at IS NULL`;
  if (e.dryRun) {
    const row = await camelOne<{ n: number | string }>(
      e.tx,
      sql`SELECT count(*) AS n FROM templates WHERE ${mine}`,
    );
    return { counts: { templates: Number(row?.n ?? 0) } };
  }
  const moved = await camelRows<{ id: string }>(
    e.tx,
    sql`UPDATE templates SET created_by = ${e.toUserId} WHERE ${mine} RETURNING id`,
  );
  return { counts: { templates: moved.length } };
}
