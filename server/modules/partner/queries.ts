import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import {
  type OpenedVia,
  externalAccountOpenings,
  partnerLinks,
  partnerSessions,
  partnerTokenUses,
} from '../../db/schema/partner.ts';

// SQL of partner links, partner token uses, partner sessions and externally opened accounts.

/**
 * Records a token's jti as used; false when it already was (a replay). Rows whose token could no longer
 * pass the expiry check are dropped on the way, so the table holds only a few minutes of logins.
 */
export async function recordTokenUse(
  db: Db,
  v: { partnerCode: string; jti: string; now: Date; keepUntil: Date },
): Promise<boolean> {
  await db.delete(partnerTokenUses).where(lt(partnerTokenUses.keepUntil, v.now));
  const rows = await db
    .insert(partnerTokenUses)
    .values({ partnerCode: v.partnerCode, jti: v.jti, usedAt: v.now, keepUntil: v.keepUntil })
    .onConflictDoNothing()
    .returning({ jti: partnerTokenUses.jti });
  return rows.length === 1;
}

/** The account a partner user is linked to (scoped by the partner's code). */
export async function findLinkByPartnerUser(db: Db, partnerCode: string, partnerUserId: string) {
  const rows = await db
    .select()
    .from(partnerLinks)
    .where(and(eq(partnerLinks.partnerCode, partnerCode), eq(partnerLinks.partnerUserId, partnerUserId)))
    .limit(1);
  return rows[0] ?? null;
}

/** The partner user an account is linked to on one partner. */
export async function findLinkByUser(db: Db, partnerCode: string, userId: string) {
  const rows = await db
    .select()
    .from(partnerLinks)
    .where(and(eq(partnerLinks.partnerCode, partnerCode), eq(partnerLinks.userId, userId)))
    .limit(1);
  return rows[0] ?? null;
}

/** Links a partner user to an account; false when either side got linked meanwhile. */
export async function insertLink(
  db: Db,
  v: { partnerCode: string; partnerUserId: string; userId: string; name: string | null; now: Date },
): Promise<boolean> {
  const rows = await db
    .insert(partnerLinks)
    .values({ ...v, createdAt: v.now, lastLoginAt: v.now })
    .onConflictDoNothing()
    .returning({ userId: partnerLinks.userId });
  return rows.length === 1;
}

export async function touchLink(
  db: Db,
  v: { partnerCode: string; partnerUserId: string; name: string | null; now: Date },
): Promise<void> {
  await db
    .update(partnerLinks)
    .set({ lastLoginAt: v.now, ...(v.name ? { name: v.name } : {}) })
    .where(and(eq(partnerLinks.partnerCode, v.partnerCode), eq(partnerLinks.partnerUserId, v.partnerUserId)));
}

export async function insertPartnerSession(
  db: Db,
  v: { sessionId: string; partnerCode: string; partnerUserId: string },
): Promise<void> {
  await db.insert(partnerSessions).values(v);
}

/** The partner identity of one session (the caller's own session id), with the link's name. */
export async function findPartnerIdentityOfSession(db: Db, sessionId: string) {
  const rows = await db
    .select({
      partnerCode: partnerSessions.partnerCode,
      partnerUserId: partnerSessions.partnerUserId,
      name: partnerLinks.name,
    })
    .from(partnerSessions)
    .leftJoin(
      partnerLinks,
      and(
        eq(partnerLinks.partnerCode, partnerSessions.partnerCode),
        eq(partnerLinks.partnerUserId, partnerSessions.partnerUserId),
      ),
    )
    .where(eq(partnerSessions.sessionId, sessionId))
    .limit(1);
  return rows[0] ?? null;
}

export async function recordOpening(
  db: Db,
  v: { userId: string; via: OpenedVia; partnerCode: string | null; now: Date },
): Promise<void> {
  await db
    .insert(externalAccountOpenings)
    .values({ userId: v.userId, via: v.via, partnerCode: v.partnerCode, createdAt: v.now })
    .onConflictDoNothing();
}
