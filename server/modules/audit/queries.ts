// Every SQL statement on the audit module's table, `audit_entries` (one hash chain per document; migration
// 060). Raw SQL, answered in camelCase.
import { sql } from 'drizzle-orm';
import { type Exec, camelOne, camelRows, dateOf, ts } from '../../db/sql-helpers.ts';

/** An entry as stored: its fields and the two hashes of its link in the chain. */
export type AuditRecord = {
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
  prevHash: string;
  entryHash: string;
};

/** The last entry of a document's chain (its seq and hash), or undefined for an empty chain. */
export async function lastEntryOf(ex: Exec, documentId: string) {
  return camelOne<{ seq: number; entryHash: string }>(
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
export async function entriesOfFlow(ex: Exec, flowId: string): Promise<AuditRecord[]> {
  const found = await camelRows<AuditRecord>(
    ex,
    sql`SELECT flow_id, document_id, seq, event, actor, actor_phone, actor_company, detail, at, ip, user_agent,
          hash_before, hash_after, prev_hash, entry_hash
        FROM audit_entries WHERE flow_id = ${flowId} ORDER BY document_id, seq`,
  );
  return found.map((e) => ({ ...e, at: dateOf(e.at) }));
}
