// SQL of a member's hand-over (issue 27) for the flow module's tables: flows, flow_parties, room_tokens,
// party_links. Only open work moves: flows still signing (or drafts), parties still waiting or pending.
import { sql } from 'drizzle-orm';
import { type Exec, camelOne, camelRows, ts } from '../../db/sql-helpers.ts';

type Who = { companyId: string; fromUserId: string; fromPhone: string };

const OPEN_FLOWS = sql`status IN ('draft', 'signing')`;

/** How many open flows `from` launched for the company, and open company parties addressed to `from`. */
export async function handoverCounts(ex: Exec, v: Who): Promise<{ flows: number; parties: number }> {
  const row = await camelOne<{ flows: number | string; parties: number | string }>(
    ex,
    sql`SELECT
          (SELECT count(*) FROM flows WHERE owner_type = 1 AND owner_id = ${v.companyId}
            AND initiator_user_id = ${v.fromUserId} AND ${OPEN_FLOWS}) AS flows,
          (SELECT count(*) FROM flow_parties p JOIN flows f ON f.id = p.flow_id
            WHERE p.kind = 'company' AND p.company_id = ${v.companyId} AND p.phone = ${v.fromPhone}
              AND p.status IN ('waiting', 'pending') AND f.status IN ('draft', 'signing')) AS parties`,
  );
  return { flows: Number(row?.flows ?? 0), parties: Number(row?.parties ?? 0) };
}

/** The open flows `from` launched for the company become `to`'s (initiator and the initiator's name). */
export async function moveInitiator(
  ex: Exec,
  v: Who & { toUserId: string; toName: string | null },
): Promise<number> {
  const moved = await camelRows<{ id: string }>(
    ex,
    sql`UPDATE flows SET initiator_user_id = ${v.toUserId}, initiator_name = coalesce(${v.toName}, initiator_name)
        WHERE owner_type = 1 AND owner_id = ${v.companyId} AND initiator_user_id = ${v.fromUserId} AND ${OPEN_FLOWS}
        RETURNING id`,
  );
  return moved.length;
}

/**
 * The open company parties addressed to `from` are readdressed to `to` (phone and name); `from`'s links and
 * room tokens for them stop working. Answers the parties moved with their status.
 */
export async function readdressParties(
  ex: Exec,
  v: Who & { toPhone: string; toName: string | null; now: Date },
): Promise<{ id: string; flowId: string; status: string }[]> {
  const moved = await camelRows<{ id: string; flowId: string; status: string }>(
    ex,
    sql`UPDATE flow_parties p SET phone = ${v.toPhone}, name = ${v.toName}
        FROM flows f
        WHERE f.id = p.flow_id AND f.status IN ('draft', 'signing')
          AND p.kind = 'company' AND p.company_id = ${v.companyId} AND p.phone = ${v.fromPhone}
          AND p.status IN ('waiting', 'pending')
        RETURNING p.id, p.flow_id, p.status`,
  );
  for (const p of moved) await cutPartyAccess(ex, p.id, v.now);
  return moved;
}

/**
 * The party's links stop working (deleted) and its open rooms expire now: the party was readdressed (a
 * member's hand-over, a reassignment of issue 29).
 */
export async function cutPartyAccess(ex: Exec, partyId: string, now: Date): Promise<void> {
  await ex.execute(sql`DELETE FROM party_links WHERE party_id = ${partyId}`);
  await ex.execute(
    sql`UPDATE room_tokens SET expires_at = ${ts(now)} WHERE party_id = ${partyId} AND expires_at > ${ts(now)}`,
  );
}
