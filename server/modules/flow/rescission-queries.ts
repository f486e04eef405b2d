// Every SQL statement of void by agreement (issue 29, migration 165: flows.rescinds_flow_id, voided_at,
// voided_by_flow_id). A rescission is a flow like any other; these only link it to the contract it rescinds.
import { sql } from 'drizzle-orm';
import { type Exec, camelOne, camelRows, ts } from '../../db/sql-helpers.ts';
import type { Flow } from './queries.ts';

/** Links a rescission being launched (in the launch's transaction) to the contract it rescinds. */
export async function linkRescission(ex: Exec, rescissionId: string, originalId: string): Promise<void> {
  await ex.execute(sql`UPDATE flows SET rescinds_flow_id = ${originalId} WHERE id = ${rescissionId}`);
}

/** Every rescission agreement of a contract, newest first. */
export async function rescissionsOf(ex: Exec, originalId: string): Promise<Flow[]> {
  return camelRows<Flow>(
    ex,
    sql`SELECT * FROM flows WHERE rescinds_flow_id = ${originalId} ORDER BY created_at DESC, id`,
  );
}

/**
 * Voids a completed contract by its completed rescission (in the completion's transaction); the contract's row
 * when this call voided it, else undefined (voided already, or not completed).
 */
export async function markVoided(
  ex: Exec,
  originalId: string,
  rescissionId: string,
  now: Date,
): Promise<Flow | undefined> {
  return camelOne<Flow>(
    ex,
    sql`UPDATE flows SET voided_at = ${ts(now)}, voided_by_flow_id = ${rescissionId}
        WHERE id = ${originalId} AND status = 'completed' AND voided_at IS NULL RETURNING *`,
  );
}
