import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { type SessionEndReason, type UserStatus, sessions, users } from '../../db/schema/accounts.ts';

// SQL of sessions. Every function names the user or the session it acts on.

export type SessionRow = {
  id: string;
  token: string;
  userId: string;
  userType: number;
  companyId: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  endedReason: SessionEndReason | null;
  userStatus: UserStatus;
};

export async function findSessionBySidHash(db: Db, sidHash: string): Promise<SessionRow | null> {
  const rows = await db
    .select({
      id: sessions.id,
      token: sessions.token,
      userId: sessions.userId,
      userType: sessions.userType,
      companyId: sessions.companyId,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      endedAt: sessions.endedAt,
      endedReason: sessions.endedReason,
      userStatus: users.status,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.sidHash, sidHash))
    .limit(1);
  return rows[0] ?? null;
}

export async function insertSession(
  db: Db,
  values: {
    sidHash: string;
    token: string;
    userId: string;
    userType: number;
    companyId: string | null;
    now: Date;
    expiresAt: Date;
  },
): Promise<string> {
  const rows = await db
    .insert(sessions)
    .values({
      sidHash: values.sidHash,
      token: values.token,
      userId: values.userId,
      userType: values.userType,
      companyId: values.companyId,
      createdAt: values.now,
      lastSeenAt: values.now,
      expiresAt: values.expiresAt,
    })
    .returning({ id: sessions.id });
  return rows[0].id;
}

export async function touchSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId));
}

/** Ends one session if it is still live. */
export async function endSession(
  db: Db,
  sessionId: string,
  reason: SessionEndReason,
  now: Date,
): Promise<void> {
  await db
    .update(sessions)
    .set({ endedAt: now, endedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.endedAt)));
}

/** Ends every live session of a user. */
export async function endUserSessions(
  db: Db,
  userId: string,
  reason: SessionEndReason,
  now: Date,
): Promise<void> {
  await db
    .update(sessions)
    .set({ endedAt: now, endedReason: reason })
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt)));
}

/** Live sessions of a user, oldest first. */
export async function liveSessionIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt)))
    .orderBy(asc(sessions.createdAt), asc(sessions.id));
  return rows.map((r) => r.id);
}

/** Ends every live session of a user but one (the account moved to a new phone: the others are evicted). */
export async function endOtherSessions(
  db: Db,
  userId: string,
  keepSessionId: string,
  reason: SessionEndReason,
  now: Date,
): Promise<void> {
  await db
    .update(sessions)
    .set({ endedAt: now, endedReason: reason })
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId), isNull(sessions.endedAt)));
}

/** Points a session at another identity (switchAccount); only the session's own row. */
export async function setSessionIdentity(
  db: Db,
  sessionId: string,
  userType: number,
  companyId: string | null,
): Promise<void> {
  await db.update(sessions).set({ userType, companyId }).where(eq(sessions.id, sessionId));
}
