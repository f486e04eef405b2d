import type { AppDeps } from '../../deps.ts';
import { type Document, appendVersion } from '../document/index.ts';
import type { Exec } from '../../db/sql-helpers.ts';

/** Moves a document from `from` to a new blob in one transaction; false when another writer moved it first. */
export async function moveVersion(
  deps: AppDeps,
  from: Document,
  next: { key: string; sha: string; size: number; reason: 'sign' | 'ltv'; partyId: string | null },
  extra: (tx: Exec) => Promise<boolean>,
  /** Runs first in the transaction (a signature locks and checks the flow row before the document's). */
  first?: (tx: Exec) => Promise<void>,
): Promise<boolean> {
  const now = deps.clock.now();
  class Lost extends Error {}
  try {
    await deps.db.transaction(async (tx) => {
      await first?.(tx);
      // One statement: the conditional pointer move (which also locks the document row for the audit
      // append) and, only when it moved, the version row.
      if (!(await appendVersion(tx, from, { ...next, now }))) throw new Lost();
      if (!(await extra(tx))) throw new Lost();
    });
    return true;
  } catch (err) {
    if (err instanceof Lost) return false;
    throw err;
  }
}
