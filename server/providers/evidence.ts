import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { rows } from '../db/sql-helpers.ts';

// The evidence log of outside providers (table provider_evidence): each check an identity, face, company
// register or payment provider answered, with the provider's request id. Read by administrators and
// support when a result is disputed; an account's entries are listed by `evidenceOf`.

type EvidenceKind = 'identity' | 'face' | 'company' | 'payment' | 'refund';

type Evidence = {
  kind: EvidenceKind;
  provider: string;
  requestId: string | null;
  subjectType: 'user' | 'company' | 'order';
  subjectId: string;
  outcome: string;
  detail?: string | null;
  at: Date;
};

type Exec = Pick<Db, 'execute'>;

export async function recordEvidence(db: Exec, e: Evidence): Promise<void> {
  await db.execute(sql`INSERT INTO provider_evidence (id, kind, provider, request_id, subject_type, subject_id,
      outcome, detail, at)
    VALUES (${randomUUID()}, ${e.kind}, ${e.provider}, ${e.requestId}, ${e.subjectType}, ${e.subjectId},
      ${e.outcome}, ${e.detail ?? null}, ${e.at.toISOString()})`);
}

export async function evidenceOf(
  db: Exec,
  subjectType: Evidence['subjectType'],
  subjectId: string,
): Promise<(Omit<Evidence, 'at'> & { at: string })[]> {
  const list = await rows<Record<string, unknown>>(
    db,
    sql`SELECT kind, provider, request_id, subject_type, subject_id, outcome,
      detail, at FROM provider_evidence WHERE subject_type = ${subjectType} AND subject_id = ${subjectId}
    ORDER BY at`,
  );
  return list.map((r) => ({
    kind: r.kind as EvidenceKind,
    provider: String(r.provider),
    requestId: (r.request_id as string | null) ?? null,
    subjectType: r.subject_type as Evidence['subjectType'],
    subjectId: String(r.subject_id),
    outcome: String(r.outcome),
    detail: (r.detail as string | null) ?? null,
    at: new Date(r.at as string).toISOString(),
  }));
}
