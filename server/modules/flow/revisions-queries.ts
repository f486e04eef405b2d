// SQL of revised documents (issue 29): `flow_revisions` (migration 162), the revision counter of `flows`
// (migration 160), and what a revision changes in `flow_parties`, `party_signatures` and `flow_fields` (the
// positions placed again; signatures withdrawn, never deleted). Rows come back camelCase.
import { sql } from 'drizzle-orm';
import { type Exec, camelRows, rows, ts } from '../../db/sql-helpers.ts';

export type RevisionRow = {
  flowId: string;
  revision: number;
  documentId: string;
  blobKey: string;
  sha256: string;
  size: number;
  pages: number;
  createdBy: string;
  createdByName: string | null;
  note: string | null;
  createdAt: unknown;
};

export async function revisionsOf(ex: Exec, flowId: string): Promise<RevisionRow[]> {
  return camelRows<RevisionRow>(
    ex,
    sql`SELECT * FROM flow_revisions WHERE flow_id = ${flowId} ORDER BY revision DESC, created_at, document_id`,
  );
}

export async function insertRevision(
  ex: Exec,
  r: Omit<RevisionRow, 'createdAt'> & { at: Date },
): Promise<void> {
  await ex.execute(sql`
    INSERT INTO flow_revisions (flow_id, revision, document_id, blob_key, sha256, size, pages, created_by,
      created_by_name, note, created_at)
    VALUES (${r.flowId}, ${r.revision}, ${r.documentId}, ${r.blobKey}, ${r.sha256}, ${r.size}, ${r.pages},
      ${r.createdBy}, ${r.createdByName}, ${r.note}, ${ts(r.at)})`);
}

/**
 * Moves an open flow from the revision read to the next one (back to its first step when signatures are
 * withdrawn); false when it is not open any more or another revision came first.
 */
export async function nextRevision(
  ex: Exec,
  flowId: string,
  from: number,
  backToFirstStep: boolean,
): Promise<boolean> {
  const moved = await rows(
    ex,
    sql`UPDATE flows SET revision = revision + 1,
          current_step = CASE WHEN ${backToFirstStep} THEN 0 ELSE current_step END
        WHERE id = ${flowId} AND status = 'signing' AND revision = ${from} RETURNING id`,
  );
  return moved.length === 1;
}

export async function setPartyPositions(ex: Exec, partyId: string, positions: unknown): Promise<void> {
  await ex.execute(
    sql`UPDATE flow_parties SET positions = ${JSON.stringify(positions)}::jsonb WHERE id = ${partyId}`,
  );
}

export async function setFieldPlace(
  ex: Exec,
  fieldId: string,
  place: { page: number; rect: [number, number, number, number] },
): Promise<void> {
  await ex.execute(
    sql`UPDATE flow_fields SET page = ${place.page}, rect = ${JSON.stringify(place.rect)}::jsonb WHERE id = ${fieldId}`,
  );
}

/**
 * Withdraws every signature of a flow (the rows stay, marked with the moment) and puts its parties back:
 * the first step pending, the others waiting; their signed fields become drafts again.
 */
export async function withdrawSignatures(ex: Exec, flowId: string, now: Date): Promise<void> {
  await ex.execute(sql`
    UPDATE party_signatures SET withdrawn_at = ${ts(now)}
    WHERE withdrawn_at IS NULL AND party_id IN (SELECT id FROM flow_parties WHERE flow_id = ${flowId})`);
  await ex.execute(sql`
    UPDATE flow_parties SET status = CASE WHEN step_index = 0 THEN 'pending' ELSE 'waiting' END,
      signed_at = NULL, signed_by_user = NULL, signed_by_name = NULL
    WHERE flow_id = ${flowId} AND status IN ('signed', 'pending', 'waiting')`);
  await ex.execute(sql`UPDATE flow_fields SET signed_at = NULL WHERE flow_id = ${flowId}`);
}

/** How many signatures of the flow stand (not withdrawn). */
export async function standingSignatureCount(ex: Exec, flowId: string): Promise<number> {
  const found = await camelRows<{ n: number }>(
    ex,
    sql`SELECT count(*)::int AS n FROM party_signatures
        WHERE withdrawn_at IS NULL AND party_id IN (SELECT id FROM flow_parties WHERE flow_id = ${flowId})`,
  );
  return found[0]?.n ?? 0;
}
