import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database.ts';

// SQL of the monitor: it owns no table, it only asks the database to answer.

/** A round trip to the database (`select 1`); throws when the database does not answer. */
export async function pingDatabase(db: Db): Promise<void> {
  await queryRows(db, sql`select 1 as ok`);
}
