// Every SQL statement on the audit module's table, `audit_entries` (one hash chain per document; migration
// 060). Raw SQL: the rows keep the table's snake_case names; chain.ts turns them into entries.
import { sql } from 'drizzle-orm';
import { type Exec, one, rows, ts } from '../../db/sql-helpers.ts';

export type EntryRow = {
  flow_id: string;
  document_id: string;
  seq: number;
  event: string;
  actor: string;
  actor_phone: string | null;
  actor_company: string | null;
  detail: string | null;
  at: unknown;
  ip: string | null;
  user_agent: string | null;
  hash_before: string | null;
  hash_after: string | null;
  prev_hash: string;
  entry_hash: string;
};

/** The last entry of a document's chain (its seq and hash), or undefined for an empty chain. */
export async function lastEntryOf(ex: Exec, documentId: string) {
  return one<{ seq: number; entry_hash: string }>(
    ex,
    sql`SELECT seq, entry_hash FROM audit_entries WHERE document_id = ${documentId} ORDER BY seq DESC LIMIT 1`,
  );
}

export async function insertEntry(
  ex: Exec,
  h: {
    flowId: string;
    documentId: string;
    seq: number;
    event: string;
    actor: string;
    actorPhone: string | null;
    actorCompany: string | null;
    detail: string | null;
    at: Date;
    ip: string | null;
    userAgent: string | null;
    hashBefore: string | null;
    hashAfter: string | null;
  },
  prevHash: string,
  entryHash: string,
): Promise<void> {
  await ex.execute(sql`
    INSERT INTO audit_entries (flow_id, document_id, seq, event, actor, actor_phone, actor_company, detail, at, ip,
      user_agent, hash_before, hash_after, prev_hash, entry_hash)
    VALUES (${h.flowId}, ${h.documentId}, ${h.seq}, ${h.event}, ${h.actor}, ${h.actorPhone}, ${h.actorCompany},
      ${h.detail}, ${ts(h.at)}, ${h.ip}, ${h.userAgent}, ${h.hashBefore}, ${h.hashAfter}, ${prevHash}, ${entryHash})`);
}

/** Every entry of a flow, per document in chain order. */
export async function entriesOfFlow(ex: Exec, flowId: string): Promise<EntryRow[]> {
  return rows<EntryRow>(
    ex,
    sql`SELECT * FROM audit_entries WHERE flow_id = ${flowId} ORDER BY document_id, seq`,
  );
}
