// SQL of a contract's term and renewals (issue 29): `flow_terms` and `flows.renews_flow_id` (migration 166).
// Dates are Beijing calendar days ('YYYY-MM-DD'). A reminder threshold is claimed by a conditional UPDATE of
// `sent_days`, so one instance sends each.
import { sql } from 'drizzle-orm';
import { type Exec, camelOne, camelRows, rows, ts } from '../../db/sql-helpers.ts';

export type TermRow = {
  flowId: string;
  startsOn: string;
  endsOn: string;
  remindDays: number[];
  remindPeople: unknown;
  sentDays: number[];
};

const TERM_COLUMNS = sql`flow_id, to_char(starts_on, 'YYYY-MM-DD') AS starts_on,
  to_char(ends_on, 'YYYY-MM-DD') AS ends_on, remind_days, remind_people, sent_days`;

export type NewTerm = {
  startsOn: string;
  endsOn: string;
  remindDays: number[];
  remindPeople: { phone: string; name?: string }[];
};

const intArray = (a: number[]) => sql`${`{${a.join(',')}}`}::integer[]`;

/** Sets (inserts or replaces) a flow's term; the reminders start over. */
export async function upsertTerm(ex: Exec, flowId: string, t: NewTerm, now: Date): Promise<void> {
  await ex.execute(sql`
    INSERT INTO flow_terms (flow_id, starts_on, ends_on, remind_days, remind_people, sent_days, updated_at)
    VALUES (${flowId}, ${t.startsOn}::date, ${t.endsOn}::date, ${intArray(t.remindDays)},
      ${JSON.stringify(t.remindPeople)}::jsonb, '{}', ${ts(now)})
    ON CONFLICT (flow_id) DO UPDATE SET starts_on = excluded.starts_on, ends_on = excluded.ends_on,
      remind_days = excluded.remind_days, remind_people = excluded.remind_people, sent_days = '{}',
      updated_at = excluded.updated_at`);
}

export async function deleteTerm(ex: Exec, flowId: string): Promise<void> {
  await ex.execute(sql`DELETE FROM flow_terms WHERE flow_id = ${flowId}`);
}

export async function findTerm(ex: Exec, flowId: string): Promise<TermRow | undefined> {
  return camelOne<TermRow>(ex, sql`SELECT ${TERM_COLUMNS} FROM flow_terms WHERE flow_id = ${flowId}`);
}

/** Completed flows whose term ends within `maxDays` of `today` and still has a threshold not reminded. */
export async function dueTermFlowIds(ex: Exec, today: string, maxDays: number): Promise<string[]> {
  const due = await rows<{ flow_id: string }>(
    ex,
    sql`SELECT t.flow_id FROM flow_terms t JOIN flows f ON f.id = t.flow_id
        WHERE f.status = 'completed' AND t.ends_on >= ${today}::date
          AND t.ends_on <= ${today}::date + ${maxDays}::integer
          AND NOT (t.remind_days <@ t.sent_days)
        ORDER BY t.ends_on LIMIT 200`,
  );
  return due.map((r) => r.flow_id);
}

/**
 * Claims the thresholds `days` of a completed flow's term (none of them sent yet): the term when this caller
 * won, else undefined.
 */
export async function claimTermDays(ex: Exec, flowId: string, days: number[]): Promise<TermRow | undefined> {
  return camelOne<TermRow>(
    ex,
    sql`UPDATE flow_terms SET sent_days = sent_days || ${intArray(days)}
        WHERE flow_id = ${flowId} AND NOT (sent_days && ${intArray(days)})
          AND EXISTS (SELECT 1 FROM flows f WHERE f.id = ${flowId} AND f.status = 'completed')
        RETURNING ${TERM_COLUMNS}`,
  );
}

/** Records the flow a new one renews (in the launch's transaction). */
export async function setRenews(ex: Exec, flowId: string, renewsFlowId: string): Promise<void> {
  await ex.execute(sql`UPDATE flows SET renews_flow_id = ${renewsFlowId} WHERE id = ${flowId}`);
}

export type FlowRefRow = { id: string; title: string; status: string; createdAt: unknown };

/** The flow `flowId` renews, if any. */
export async function renewedFlowOf(ex: Exec, flowId: string): Promise<FlowRefRow | undefined> {
  return camelOne<FlowRefRow>(
    ex,
    sql`SELECT o.id, o.title, o.status, o.created_at FROM flows f JOIN flows o ON o.id = f.renews_flow_id
        WHERE f.id = ${flowId}`,
  );
}

/** The renewals of a flow launched by the same account (at most 20, newest first). */
export async function renewalsOf(
  ex: Exec,
  flowId: string,
  account: { ownerType: number; ownerId: string },
): Promise<FlowRefRow[]> {
  return camelRows<FlowRefRow>(
    ex,
    sql`SELECT id, title, status, created_at FROM flows
        WHERE renews_flow_id = ${flowId} AND owner_type = ${account.ownerType} AND owner_id = ${account.ownerId}
        ORDER BY created_at DESC LIMIT 20`,
  );
}

/** The terms of the given flows launched by `account`. */
export async function termsOfAccount(
  ex: Exec,
  account: { ownerType: number; ownerId: string },
  flowIds: string[],
): Promise<{ flowId: string; endsOn: string }[]> {
  if (flowIds.length === 0) return [];
  return camelRows(
    ex,
    sql`SELECT t.flow_id, to_char(t.ends_on, 'YYYY-MM-DD') AS ends_on FROM flow_terms t JOIN flows f ON f.id = t.flow_id
        WHERE f.owner_type = ${account.ownerType} AND f.owner_id = ${account.ownerId}
          AND t.flow_id = ANY(${`{${flowIds.join(',')}}`}::uuid[])`,
  );
}
