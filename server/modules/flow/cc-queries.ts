// SQL of copy recipients (抄送, issue 29): `flow_cc` and `flow_cc_links` (migration 164). Rows come back
// camelCase. Every statement names its flow (the caller checked the flow is the account's) or a link hash.
import { sql } from 'drizzle-orm';
import { type Exec, camelOne, camelRows, one, ts } from '../../db/sql-helpers.ts';
import type { Flow } from './queries.ts';

export type CcRow = {
  id: string;
  flowId: string;
  ord: number;
  name: string;
  phone: string;
  notifyProgress: boolean;
  createdAt: unknown;
  lastViewedAt: unknown;
};

export type NewCc = { id: string; name: string; phone: string; notifyProgress: boolean };

/** Stores copy recipients of a flow after its existing ones (launch's or addFlowCc's transaction). */
export async function insertCcs(ex: Exec, flowId: string, ccs: NewCc[], now: Date): Promise<void> {
  const base =
    (await one<{ n: number }>(ex, sql`SELECT count(*)::int AS n FROM flow_cc WHERE flow_id = ${flowId}`))
      ?.n ?? 0;
  for (const [i, c] of ccs.entries())
    await ex.execute(sql`
      INSERT INTO flow_cc (id, flow_id, ord, name, phone, notify_progress, created_at)
      VALUES (${c.id}, ${flowId}, ${base + i}, ${c.name}, ${c.phone}, ${c.notifyProgress}, ${ts(now)})`);
}

export async function ccsOfFlow(ex: Exec, flowId: string): Promise<CcRow[]> {
  return camelRows<CcRow>(ex, sql`SELECT * FROM flow_cc WHERE flow_id = ${flowId} ORDER BY ord`);
}

export async function findCc(ex: Exec, ccId: string): Promise<CcRow | undefined> {
  return camelOne<CcRow>(ex, sql`SELECT * FROM flow_cc WHERE id = ${ccId}`);
}

export async function insertCcLink(ex: Exec, linkHash: string, ccId: string, now: Date): Promise<void> {
  await ex.execute(
    sql`INSERT INTO flow_cc_links (link_hash, cc_id, created_at) VALUES (${linkHash}, ${ccId}, ${ts(now)})`,
  );
}

/** The recipient a link's hash opens, or undefined. */
export async function ccByLinkHash(ex: Exec, linkHash: string): Promise<CcRow | undefined> {
  return camelOne<CcRow>(
    ex,
    sql`SELECT c.* FROM flow_cc_links l JOIN flow_cc c ON c.id = l.cc_id WHERE l.link_hash = ${linkHash}`,
  );
}

export async function markCcViewed(ex: Exec, ccId: string, now: Date): Promise<void> {
  await ex.execute(sql`UPDATE flow_cc SET last_viewed_at = ${ts(now)} WHERE id = ${ccId}`);
}

/**
 * The ids of the flows copied to a phone, newest first (for the contract centre: "copied to me"). Held flows
 * (waiting for their launch approval) were not sent, so they are not listed.
 */
export async function ccFlowIdsOfPhone(ex: Exec, phone: string): Promise<string[]> {
  const rows = await camelRows<{ flowId: string }>(
    ex,
    sql`SELECT c.flow_id FROM flow_cc c JOIN flows f ON f.id = c.flow_id
        WHERE c.phone = ${phone} AND NOT f.held_for_approval ORDER BY f.created_at DESC, f.id`,
  );
  return rows.map((r) => r.flowId);
}

/** A page of the flows copied to a phone, newest first, with the recipient row's id. */
export async function copiedPage(
  ex: Exec,
  phone: string,
  page: { pageNum: number; pageSize: number },
): Promise<{ list: (Flow & { ccId: string })[]; total: number }> {
  const where = sql`c.phone = ${phone} AND NOT f.held_for_approval`;
  const total =
    (
      await one<{ n: number }>(
        ex,
        sql`SELECT count(*)::int AS n FROM flow_cc c JOIN flows f ON f.id = c.flow_id WHERE ${where}`,
      )
    )?.n ?? 0;
  const list = await camelRows<Flow & { ccId: string }>(
    ex,
    sql`SELECT f.*, c.id AS cc_id FROM flow_cc c JOIN flows f ON f.id = c.flow_id WHERE ${where}
        ORDER BY f.created_at DESC, f.id LIMIT ${page.pageSize} OFFSET ${(page.pageNum - 1) * page.pageSize}`,
  );
  return { list, total };
}
