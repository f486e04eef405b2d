import { and, asc, desc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import { UserType } from '#contract/enums.ts';
import type { SealKind, SealStatus } from '#contract/enums.ts';
import type { Db } from '../../db/database.ts';
import { type Exec, camelOne, camelRows, ts } from '../../db/sql-helpers.ts';
import { type SealRow, sealAuthorisations, seals } from '../../db/schema/seal.ts';
import type { SealDef } from '../../seal/seal-def.ts';

// SQL of seals and their authorisations. Every read takes the owner (person id or company id) and is
// scoped by it: a seal id alone never reaches a row of another account.

/** Whose seals: a person (users.id) or a company (companies.id). */
export type SealOwner = { ownerType: 0 | 1; ownerId: string };

export const personOwner = (userId: string): SealOwner => ({ ownerType: UserType.Person, ownerId: userId });
export const companyOwner = (companyId: string): SealOwner => ({
  ownerType: UserType.Company,
  ownerId: companyId,
});

const ofOwner = (owner: SealOwner) =>
  and(eq(seals.ownerType, owner.ownerType), eq(seals.ownerId, owner.ownerId), isNull(seals.deletedAt));

type NewSeal = {
  owner: SealOwner;
  sealType: number | null;
  name: string;
  kind: SealKind;
  definition: SealDef | null;
  svgKey: string | null;
  pngKey: string;
  pdfKey: string;
  widthMm: number;
  heightMm: number;
  antiCounterfeitNo: string | null;
  createdBy: string;
  now: Date;
};

/** Inserts a seal; null when its anti-counterfeit number is taken (also under a concurrent insert). */
export async function insertSeal(db: Db, s: NewSeal): Promise<SealRow | null> {
  const rows = await db
    .insert(seals)
    .values({
      ownerType: s.owner.ownerType,
      ownerId: s.owner.ownerId,
      sealType: s.sealType,
      name: s.name,
      kind: s.kind,
      definition: s.definition,
      svgKey: s.svgKey,
      pngKey: s.pngKey,
      pdfKey: s.pdfKey,
      widthMm: s.widthMm,
      heightMm: s.heightMm,
      antiCounterfeitNo: s.antiCounterfeitNo,
      createdBy: s.createdBy,
      createdAt: s.now,
      updatedAt: s.now,
    })
    .onConflictDoNothing({ target: seals.antiCounterfeitNo })
    .returning();
  return rows[0] ?? null;
}

export async function listSeals(db: Db, owner: SealOwner): Promise<SealRow[]> {
  return db.select().from(seals).where(ofOwner(owner)).orderBy(desc(seals.createdAt), desc(seals.id));
}

/** One live seal of the owner; undefined for another owner's seal, a deleted one or an unknown id. */
export async function findSeal(db: Db, owner: SealOwner, sealId: string): Promise<SealRow | undefined> {
  const rows = await db
    .select()
    .from(seals)
    .where(and(ofOwner(owner), eq(seals.id, sealId)))
    .limit(1);
  return rows[0];
}

/** A live seal by id whatever its owner: only for the image route, which then decides access itself. */
export async function findSealAnyOwner(db: Db, sealId: string): Promise<SealRow | undefined> {
  const rows = await db
    .select()
    .from(seals)
    .where(and(eq(seals.id, sealId), isNull(seals.deletedAt)))
    .limit(1);
  return rows[0];
}

export async function setStatus(
  db: Db,
  owner: SealOwner,
  sealId: string,
  status: SealStatus,
  now: Date,
): Promise<void> {
  await db
    .update(seals)
    .set({ status, updatedAt: now })
    .where(and(ofOwner(owner), eq(seals.id, sealId)));
}

export async function markDeleted(db: Db, owner: SealOwner, sealId: string, now: Date): Promise<void> {
  await db
    .update(seals)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(ofOwner(owner), eq(seals.id, sealId)));
  // A deleted seal can no longer be used by anyone: its authorisations end with it.
  await db
    .update(sealAuthorisations)
    .set({ revokedAt: now })
    .where(and(eq(sealAuthorisations.sealId, sealId), isNull(sealAuthorisations.revokedAt)));
}

export async function findByAntiCounterfeitNo(db: Db, no: string): Promise<SealRow | undefined> {
  const rows = await db
    .select()
    .from(seals)
    .where(and(eq(seals.antiCounterfeitNo, no), isNull(seals.deletedAt)))
    .limit(1);
  return rows[0];
}

/** An authorisation row as stored (the holder's name and phone come from the session module). */
type StoredAuthorisation = {
  id: string;
  sealId: string;
  userId: string;
  validFrom: Date;
  validTo: Date;
};

export type AuthorisationRow = StoredAuthorisation & { userName: string | null; phone: string };

/**
 * Live authorisations of the company's seals (not revoked, not yet ended at `now`), optionally of one
 * user only. Scoped by the company.
 */
export async function listAuthorisations(
  db: Db,
  companyId: string,
  now: Date,
  onlyUserId?: string,
): Promise<StoredAuthorisation[]> {
  return db
    .select({
      id: sealAuthorisations.id,
      sealId: sealAuthorisations.sealId,
      userId: sealAuthorisations.userId,
      validFrom: sealAuthorisations.validFrom,
      validTo: sealAuthorisations.validTo,
    })
    .from(sealAuthorisations)
    .where(
      and(
        eq(sealAuthorisations.companyId, companyId),
        isNull(sealAuthorisations.revokedAt),
        gt(sealAuthorisations.validTo, now),
        onlyUserId ? eq(sealAuthorisations.userId, onlyUserId) : undefined,
      ),
    )
    .orderBy(asc(sealAuthorisations.validFrom), asc(sealAuthorisations.id));
}

/** Whether the user holds an authorisation of the seal that applies at `now`. */
export async function isAuthorisedNow(
  db: Db,
  companyId: string,
  sealId: string,
  userId: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .select({ id: sealAuthorisations.id })
    .from(sealAuthorisations)
    .where(
      and(
        eq(sealAuthorisations.companyId, companyId),
        eq(sealAuthorisations.sealId, sealId),
        eq(sealAuthorisations.userId, userId),
        isNull(sealAuthorisations.revokedAt),
        lte(sealAuthorisations.validFrom, now),
        gt(sealAuthorisations.validTo, now),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Replaces the users' live authorisations of a seal by new ones for the period. */
export async function authorise(
  db: Db,
  v: {
    companyId: string;
    sealId: string;
    userIds: string[];
    validFrom: Date;
    validTo: Date;
    by: string;
    now: Date;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(sealAuthorisations)
      .set({ revokedAt: v.now, revokedBy: v.by })
      .where(
        and(
          eq(sealAuthorisations.companyId, v.companyId),
          eq(sealAuthorisations.sealId, v.sealId),
          inArray(sealAuthorisations.userId, v.userIds),
          isNull(sealAuthorisations.revokedAt),
        ),
      );
    await tx.insert(sealAuthorisations).values(
      v.userIds.map((userId) => ({
        sealId: v.sealId,
        companyId: v.companyId,
        userId,
        validFrom: v.validFrom,
        validTo: v.validTo,
        createdBy: v.by,
        createdAt: v.now,
      })),
    );
  });
}

/** Revokes one live authorisation of the company; the seal id it belonged to, or null when none. */
export async function revokeAuthorisation(
  db: Db,
  companyId: string,
  authorisationId: string,
  by: string,
  now: Date,
): Promise<string | null> {
  const rows = await db
    .update(sealAuthorisations)
    .set({ revokedAt: now, revokedBy: by })
    .where(
      and(
        eq(sealAuthorisations.companyId, companyId),
        eq(sealAuthorisations.id, authorisationId),
        isNull(sealAuthorisations.revokedAt),
      ),
    )
    .returning({ sealId: sealAuthorisations.sealId });
  return rows[0]?.sealId ?? null;
}

/** Whether the owner has an enabled seal (for a company operator: one authorised to them now). */
export async function hasEnabledSeal(
  db: Db,
  owner: SealOwner,
  now: Date,
  authorisedTo?: string,
): Promise<boolean> {
  const base = and(ofOwner(owner), eq(seals.status, 'enabled'));
  const where = authorisedTo
    ? and(
        base,
        sql`EXISTS (SELECT 1 FROM seal_authorisations a WHERE a.seal_id = ${seals.id}
          AND a.company_id = ${owner.ownerId} AND a.user_id = ${authorisedTo} AND a.revoked_at IS NULL
          AND a.valid_from <= ${now.toISOString()}::timestamptz AND a.valid_to > ${now.toISOString()}::timestamptz)`,
      )
    : base;
  const rows = await db.select({ id: seals.id }).from(seals).where(where).limit(1);
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------------------
// Keepers (migration 154) and hand-over (issue 27)

/** The keepers of each of the company's seals (user ids by seal id). */
export async function keepersOf(db: Exec, companyId: string): Promise<Map<string, string[]>> {
  const found = await camelRows<{ sealId: string; userId: string }>(
    db,
    sql`SELECT seal_id, user_id FROM seal_keepers WHERE company_id = ${companyId} ORDER BY granted_at, user_id`,
  );
  const out = new Map<string, string[]>();
  for (const r of found) out.set(r.sealId, [...(out.get(r.sealId) ?? []), r.userId]);
  return out;
}

/** The seals of the company the user keeps. */
export async function sealsKeptBy(db: Exec, companyId: string, userId: string): Promise<string[]> {
  const found = await camelRows<{ sealId: string }>(
    db,
    sql`SELECT seal_id FROM seal_keepers WHERE company_id = ${companyId} AND user_id = ${userId}`,
  );
  return found.map((r) => r.sealId);
}

/** Sets a seal's keepers to exactly `userIds`; answers who was added and who removed. */
export async function setKeepers(
  tx: Exec,
  v: { companyId: string; sealId: string; userIds: string[]; by: string; now: Date },
): Promise<{ added: string[]; removed: string[] }> {
  const held = await camelRows<{ userId: string }>(
    tx,
    sql`SELECT user_id FROM seal_keepers WHERE company_id = ${v.companyId} AND seal_id = ${v.sealId}`,
  );
  const removed = held.map((r) => r.userId).filter((id) => !v.userIds.includes(id));
  for (const userId of removed)
    await tx.execute(
      sql`DELETE FROM seal_keepers WHERE company_id = ${v.companyId} AND seal_id = ${v.sealId}
          AND user_id = ${userId}`,
    );
  const added: string[] = [];
  for (const userId of v.userIds) {
    const got = await camelRows<{ userId: string }>(
      tx,
      sql`INSERT INTO seal_keepers (seal_id, company_id, user_id, granted_by, granted_at)
          VALUES (${v.sealId}, ${v.companyId}, ${userId}, ${v.by}, ${ts(v.now)})
          ON CONFLICT DO NOTHING RETURNING user_id`,
    );
    if (got.length > 0) added.push(userId);
  }
  return { added, removed };
}

/** The seal a live authorisation of the company belongs to (null when none). */
export async function authorisationSeal(db: Exec, companyId: string, authorisationId: string) {
  const row = await camelOne<{ sealId: string }>(
    db,
    sql`SELECT seal_id FROM seal_authorisations
        WHERE company_id = ${companyId} AND id = ${authorisationId} AND revoked_at IS NULL`,
  );
  return row?.sealId ?? null;
}

/** What a hand-over would move of the seal module's rows: live authorisations and keepings of `from`. */
export async function handoverCounts(
  db: Exec,
  v: { companyId: string; fromUserId: string; now: Date },
): Promise<{ sealAuthorisations: number; sealKeepings: number }> {
  const row = await camelOne<{ auths: number | string; keeps: number | string }>(
    db,
    sql`SELECT
          (SELECT count(*) FROM seal_authorisations WHERE company_id = ${v.companyId}
            AND user_id = ${v.fromUserId} AND revoked_at IS NULL AND valid_to > ${ts(v.now)}) AS auths,
          (SELECT count(*) FROM seal_keepers WHERE company_id = ${v.companyId}
            AND user_id = ${v.fromUserId}) AS keeps`,
  );
  return { sealAuthorisations: Number(row?.auths ?? 0), sealKeepings: Number(row?.keeps ?? 0) };
}

/**
 * Hands `from`'s live authorisations (same periods: `to` gets a copy of each, `from`'s is revoked by the
 * administrator) and keepings of the company's seals to `to`, in the caller's transaction.
 */
export async function handOver(
  tx: Exec,
  v: { companyId: string; fromUserId: string; toUserId: string; by: string; now: Date },
): Promise<{ sealAuthorisations: number; sealKeepings: number }> {
  const auths = await camelRows<{ id: string }>(
    tx,
    sql`WITH moved AS (
          UPDATE seal_authorisations SET revoked_at = ${ts(v.now)}, revoked_by = ${v.by}
          WHERE company_id = ${v.companyId} AND user_id = ${v.fromUserId} AND revoked_at IS NULL
            AND valid_to > ${ts(v.now)}
          RETURNING seal_id, valid_from, valid_to)
        INSERT INTO seal_authorisations (seal_id, company_id, user_id, valid_from, valid_to, created_by, created_at)
          SELECT seal_id, ${v.companyId}, ${v.toUserId}, valid_from, valid_to, ${v.by}, ${ts(v.now)} FROM moved
        RETURNING id`,
  );
  const keeps = await camelRows<{ sealId: string }>(
    tx,
    sql`DELETE FROM seal_keepers WHERE company_id = ${v.companyId} AND user_id = ${v.fromUserId}
        RETURNING seal_id`,
  );
  for (const k of keeps)
    await tx.execute(
      sql`INSERT INTO seal_keepers (seal_id, company_id, user_id, granted_by, granted_at)
          VALUES (${k.sealId}, ${v.companyId}, ${v.toUserId}, ${v.by}, ${ts(v.now)}) ON CONFLICT DO NOTHING`,
    );
  return { sealAuthorisations: auths.length, sealKeepings: keeps.length };
}
