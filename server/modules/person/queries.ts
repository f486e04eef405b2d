import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { rows, ts } from '../../db/sql-helpers.ts';
import type { Db } from '../../db/database.ts';
import {
  FaceStatus,
  accountRecoveries,
  faceAuthSessions,
  personAgreements,
  personIdentities,
} from '../../db/schema/person.ts';

// SQL of person accounts. Every function names the user it acts on; nothing reads another user's rows
// except the identity-hash lookup, which answers only "which user holds this identity".

type IdentityRow = typeof personIdentities.$inferSelect;

export async function findIdentity(db: Db, userId: string): Promise<IdentityRow | null> {
  const rows = await db.select().from(personIdentities).where(eq(personIdentities.userId, userId)).limit(1);
  return rows[0] ?? null;
}

/** The user holding an identity (by keyed hash), if any. */
export async function findUserIdByIdHash(db: Db, idHash: string): Promise<string | null> {
  const rows = await db
    .select({ userId: personIdentities.userId })
    .from(personIdentities)
    .where(eq(personIdentities.idHash, idHash))
    .limit(1);
  return rows[0]?.userId ?? null;
}

/** Records a verified identity; false when the identity is taken. */
export async function insertIdentity(db: Db, row: typeof personIdentities.$inferInsert): Promise<boolean> {
  const inserted = await db
    .insert(personIdentities)
    .values(row)
    .onConflictDoNothing()
    .returning({ userId: personIdentities.userId });
  return inserted.length > 0;
}

export async function setFaceVerified(db: Db, userId: string, at: Date): Promise<void> {
  await db.update(personIdentities).set({ faceVerifiedAt: at }).where(eq(personIdentities.userId, userId));
}

export async function findAcceptance(db: Db, userId: string, version: string) {
  const rows = await db
    .select()
    .from(personAgreements)
    .where(and(eq(personAgreements.userId, userId), eq(personAgreements.version, version)))
    .limit(1);
  return rows[0] ?? null;
}

/** Records acceptance of a version once; a repeated acceptance keeps the first time. */
export async function insertAcceptance(db: Db, userId: string, version: string, at: Date) {
  await db.insert(personAgreements).values({ userId, version, acceptedAt: at }).onConflictDoNothing();
  return (await findAcceptance(db, userId, version))!;
}

export async function insertFaceSession(db: Db, row: typeof faceAuthSessions.$inferInsert): Promise<void> {
  await db.insert(faceAuthSessions).values(row);
}

export async function findFaceByPersonCode(db: Db, personCode: string) {
  const rows = await db
    .select()
    .from(faceAuthSessions)
    .where(eq(faceAuthSessions.personCode, personCode))
    .limit(1);
  return rows[0] ?? null;
}

export async function findFaceByTokenHash(db: Db, tokenHash: string) {
  const rows = await db
    .select()
    .from(faceAuthSessions)
    .where(eq(faceAuthSessions.tokenHash, tokenHash))
    .limit(1);
  return rows[0] ?? null;
}

/** Decides a pending, unexpired attempt once; false when it was already decided or has expired. */
export async function decideFace(
  db: Db,
  personCode: string,
  status: FaceStatus,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(faceAuthSessions)
    .set({ status, decidedAt: now })
    .where(
      and(
        eq(faceAuthSessions.personCode, personCode),
        eq(faceAuthSessions.status, FaceStatus.Pending),
        gt(faceAuthSessions.expiresAt, now),
      ),
    )
    .returning({ id: faceAuthSessions.id });
  return rows.length > 0;
}

export async function insertRecovery(db: Db, row: typeof accountRecoveries.$inferInsert): Promise<void> {
  await db.insert(accountRecoveries).values(row);
}

/** Uses a recovery ticket of this user once, within its lifetime; null otherwise. */
export async function consumeRecovery(db: Db, userId: string, ticketHash: string, now: Date) {
  const rows = await db
    .update(accountRecoveries)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountRecoveries.ticketHash, ticketHash),
        eq(accountRecoveries.userId, userId),
        isNull(accountRecoveries.usedAt),
        gt(accountRecoveries.expiresAt, now),
      ),
    )
    .returning({ newPhone: accountRecoveries.newPhone });
  return rows[0] ?? null;
}

/** Keeps the provider's handle and request id of a face attempt. */
export async function setFaceProviderRef(
  db: Db,
  personCode: string,
  ref: { providerRef: string | null; providerRequestId: string | null },
): Promise<void> {
  await db.update(faceAuthSessions).set(ref).where(eq(faceAuthSessions.personCode, personCode));
}

/**
 * Uses, once, the newest passed face check of a user for one business (e.g. a signing room's party)
 * decided after `since`: false when there is none (one conditional UPDATE, so two callers never both use it).
 * Raw SQL: `used_at` (migration 118) is not in the drizzle schema.
 */
export async function spendFreshFaceCheck(
  db: Db,
  c: { userId: string; openFlag: string; businessCode: string; since: Date; now: Date },
): Promise<boolean> {
  const used = await rows<{ id: string }>(
    db,
    sql`UPDATE face_auth_sessions SET used_at = ${ts(c.now)}
        WHERE id = (SELECT id FROM face_auth_sessions
                    WHERE user_id = ${c.userId} AND open_flag = ${c.openFlag}
                      AND business_code = ${c.businessCode} AND status = 'passed' AND used_at IS NULL
                      AND decided_at > ${ts(c.since)}
                    ORDER BY decided_at DESC LIMIT 1 FOR UPDATE)
          AND used_at IS NULL
        RETURNING id`,
  );
  return used.length === 1;
}
