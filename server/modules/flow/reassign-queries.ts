// SQL of reassign, deadline change and copy link (issue 29): party_reassignments, reassigned_links,
// flow_parties.allow_reassign and the deadline of flows (migration 163).
import { sql } from 'drizzle-orm';
import { type Exec, camelOne, camelRows, ts } from '../../db/sql-helpers.ts';
import { cutPartyAccess } from './handover-queries.ts';
import type { Flow, Party } from './queries.ts';

export type ReassignmentRow = {
  id: string;
  flowId: string;
  partyId: string;
  fromName: string | null;
  fromPhone: string;
  toName: string | null;
  toPhone: string;
  reason: string;
  byRole: 'party' | 'launcher';
  byUserId: string | null;
  byName: string | null;
  at: unknown;
};

/** The launcher forbade reassigning these parties (launch's transaction). */
export async function forbidReassign(ex: Exec, partyIds: string[]): Promise<void> {
  for (const id of partyIds)
    await ex.execute(sql`UPDATE flow_parties SET allow_reassign = false WHERE id = ${id}`);
}

/** Whether each party of the flow may be reassigned. */
export async function reassignAllowedOf(
  ex: Exec,
  flowId: string,
): Promise<{ partyId: string; allowReassign: boolean }[]> {
  return camelRows(
    ex,
    sql`SELECT id AS party_id, allow_reassign FROM flow_parties WHERE flow_id = ${flowId} ORDER BY step_index, ord`,
  );
}

/**
 * Readdresses an open party (still waiting or pending, reassign allowed, of an open flow) from the phone it
 * had to `to`, in `tx`: the row's name and phone, the history row, the old links remembered by hash and deleted,
 * the rooms expired. Answers the party as it is now, or undefined when it was not open (any more).
 */
export async function readdressParty(
  ex: Exec,
  r: Omit<ReassignmentRow, 'at' | 'flowId'> & { flowId: string; at: Date },
): Promise<Party | undefined> {
  const party = await camelOne<Party>(
    ex,
    sql`UPDATE flow_parties p SET phone = ${r.toPhone}, name = ${r.toName},
          sent_at = NULL, opened_at = NULL, onboarding_at = NULL, onboarding_problem = NULL, last_reminded_at = NULL
        FROM flows f
        WHERE p.id = ${r.partyId} AND p.flow_id = ${r.flowId} AND f.id = p.flow_id AND f.status = 'signing'
          AND p.status IN ('waiting', 'pending') AND p.allow_reassign AND p.phone = ${r.fromPhone}
        RETURNING p.*`,
  );
  if (!party) return undefined;
  await ex.execute(
    sql`INSERT INTO party_reassignments (id, flow_id, party_id, from_name, from_phone, to_name, to_phone, reason,
          by_role, by_user_id, by_name, at)
        VALUES (${r.id}, ${r.flowId}, ${r.partyId}, ${r.fromName}, ${r.fromPhone}, ${r.toName}, ${r.toPhone},
          ${r.reason}, ${r.byRole}, ${r.byUserId}, ${r.byName}, ${ts(r.at)})`,
  );
  await ex.execute(
    sql`INSERT INTO reassigned_links (link_hash, reassignment_id)
        SELECT link_hash, ${r.id} FROM party_links WHERE party_id = ${r.partyId}
        ON CONFLICT DO NOTHING`,
  );
  await cutPartyAccess(ex, r.partyId, r.at);
  return party;
}

/** How many times the party was handed over. */
export async function reassignmentCount(ex: Exec, partyId: string): Promise<number> {
  const row = await camelOne<{ n: number | string }>(
    ex,
    sql`SELECT count(*) AS n FROM party_reassignments WHERE party_id = ${partyId}`,
  );
  return Number(row?.n ?? 0);
}

/** A flow's reassignments, oldest first. */
export async function reassignmentsOf(ex: Exec, flowId: string): Promise<ReassignmentRow[]> {
  return camelRows(ex, sql`SELECT * FROM party_reassignments WHERE flow_id = ${flowId} ORDER BY at, id`);
}

/** The reassignment that took a link away (by the link's hash), if any. */
export async function reassignmentOfLink(ex: Exec, linkHash: string): Promise<ReassignmentRow | undefined> {
  return camelOne(
    ex,
    sql`SELECT r.* FROM reassigned_links l JOIN party_reassignments r ON r.id = l.reassignment_id
        WHERE l.link_hash = ${linkHash}`,
  );
}

/** The latest reassignment that took the party away from `phone` (its rooms of that phone expired then). */
export async function reassignmentAwayFrom(
  ex: Exec,
  partyId: string,
  phone: string,
): Promise<ReassignmentRow | undefined> {
  return camelOne(
    ex,
    sql`SELECT * FROM party_reassignments WHERE party_id = ${partyId} AND from_phone = ${phone}
        ORDER BY at DESC LIMIT 1`,
  );
}

/**
 * Moves an open flow's deadline (only while it is signing): the day-before notice armed again, unless the new
 * deadline is already within a day (`noticeDone`: the change's own notice told everyone). The row, or undefined.
 */
export async function moveDeadline(
  ex: Exec,
  v: { flowId: string; deadline: Date; noticeDone: Date | null },
): Promise<Flow | undefined> {
  return camelOne<Flow>(
    ex,
    sql`UPDATE flows SET deadline = ${ts(v.deadline)},
          deadline_notice_at = ${v.noticeDone ? ts(v.noticeDone) : null}
        WHERE id = ${v.flowId} AND status = 'signing' RETURNING *`,
  );
}
