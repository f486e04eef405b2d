import { type SQL, and, asc, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  type ApplicantRole,
  CompanyStatus,
  type MemberRole,
  MemberStatus,
  companies,
  companyMembers,
} from '../../db/schema/company.ts';
import { findUsersByPhoneOrName, userIdsWithNameLike, usersByIds } from '../session/index.ts';
import type { PickerKeyword } from './picker-keyword.ts';

// SQL of companies and their members. Every function that reads a company's data takes the company id
// the caller is entitled to (from the session or the caller's own application) and is scoped by it.

export type CompanyRow = typeof companies.$inferSelect;

export type MemberRow = {
  memberId: string;
  companyId: string;
  userId: string;
  name: string | null;
  phone: string;
  role: MemberRole;
  status: MemberStatus;
  createdAt: Date;
  updatedAt: Date;
};

const memberColumns = {
  memberId: companyMembers.id,
  companyId: companyMembers.companyId,
  userId: companyMembers.userId,
  role: companyMembers.role,
  status: companyMembers.status,
  createdAt: companyMembers.createdAt,
  updatedAt: companyMembers.updatedAt,
};

/**
 * Members with their users' names and phones, asked of the session module (which owns `users`), in the
 * order given; a member whose user is gone is left out.
 */
async function withUsers<R extends { userId: string }>(
  db: Db,
  list: R[],
): Promise<(R & { name: string | null; phone: string })[]> {
  const found = await usersByIds(
    db,
    list.map((m) => m.userId),
  );
  const out: (R & { name: string | null; phone: string })[] = [];
  for (const m of list) {
    const u = found.get(m.userId);
    if (u) out.push({ ...m, name: u.name, phone: u.phone });
  }
  return out;
}

/** LIKE pattern that matches the text literally (users type % and _ too). */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function insertCompany(
  db: Db,
  v: {
    name: string;
    creditCode: string;
    legalRepName: string;
    applicantUserId: string;
    applicantRole: ApplicantRole;
    now: Date;
  },
): Promise<CompanyRow> {
  const rows = await db
    .insert(companies)
    .values({
      name: v.name,
      creditCode: v.creditCode,
      legalRepName: v.legalRepName,
      applicantUserId: v.applicantUserId,
      applicantRole: v.applicantRole,
      createdAt: v.now,
    })
    .returning();
  return rows[0];
}

export async function findCompany(db: Db, companyId: string): Promise<CompanyRow | undefined> {
  const rows = await db.select().from(companies).where(eq(companies.id, companyId)).limit(1);
  return rows[0];
}

/** An application of this applicant: the one named, or the latest pending one. */
export async function findApplyOf(
  db: Db,
  applicantUserId: string,
  companyId?: string,
): Promise<CompanyRow | undefined> {
  const rows = await db
    .select()
    .from(companies)
    .where(
      companyId
        ? and(eq(companies.id, companyId), eq(companies.applicantUserId, applicantUserId))
        : and(eq(companies.applicantUserId, applicantUserId), eq(companies.status, CompanyStatus.Pending)),
    )
    .orderBy(desc(companies.createdAt))
    .limit(1);
  return rows[0];
}

/** The verified company with this credit code (the earliest verified among equals), if any. */
export async function verifiedCompanyByCreditCode(
  db: Db,
  creditCode: string,
): Promise<{ id: string; name: string; creditCode: string } | undefined> {
  const rows = await db
    .select({ id: companies.id, name: companies.name, creditCode: companies.creditCode })
    .from(companies)
    .where(and(eq(companies.creditCode, creditCode), eq(companies.status, CompanyStatus.Verified)))
    .orderBy(asc(companies.verifiedAt))
    .limit(1);
  return rows[0];
}

/** Names and credit codes of these companies, by name (then id). */
export async function companyNamesOf(
  db: Db,
  ids: string[],
): Promise<{ id: string; name: string; creditCode: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: companies.id, name: companies.name, creditCode: companies.creditCode })
    .from(companies)
    .where(inArray(companies.id, ids))
    .orderBy(asc(companies.name), asc(companies.id));
}

export async function isCreditCodeVerified(db: Db, creditCode: string): Promise<boolean> {
  const rows = await db
    .select({ id: companies.id })
    .from(companies)
    .where(and(eq(companies.creditCode, creditCode), eq(companies.status, CompanyStatus.Verified)))
    .limit(1);
  return rows.length > 0;
}

export async function setPowerOfAttorney(db: Db, companyId: string, blobKey: string, mime: string) {
  await db.update(companies).set({ poaBlobKey: blobKey, poaMime: mime }).where(eq(companies.id, companyId));
}

export async function setPayment(db: Db, companyId: string, amountHash: string, now: Date) {
  await db
    .update(companies)
    .set({ paymentAmountHash: amountHash, paymentAttempts: 0, paymentSentAt: now })
    .where(eq(companies.id, companyId));
}

/** Counts one wrong amount; at `max` the payment is forgotten and must be sent again. Returns attempts used. */
export async function countWrongAmount(db: Db, companyId: string, max: number): Promise<number> {
  const rows = await db
    .update(companies)
    .set({ paymentAttempts: sql`${companies.paymentAttempts} + 1` })
    .where(eq(companies.id, companyId))
    .returning({ attempts: companies.paymentAttempts });
  const attempts = rows[0]?.attempts ?? max;
  if (attempts >= max) {
    await db
      .update(companies)
      .set({ paymentAmountHash: null, paymentSentAt: null })
      .where(eq(companies.id, companyId));
  }
  return attempts;
}

/**
 * Marks the application verified and makes the applicant its administrator, in one transaction. Returns
 * false when another application with the same credit code was verified first (the unique index).
 */
export async function markVerified(db: Db, company: CompanyRow, now: Date): Promise<boolean> {
  try {
    await db.transaction(async (tx) => {
      await tx
        .update(companies)
        .set({ status: CompanyStatus.Verified, verifiedAt: now, paymentAmountHash: null })
        .where(and(eq(companies.id, company.id), eq(companies.status, CompanyStatus.Pending)));
      await tx.insert(companyMembers).values({
        companyId: company.id,
        userId: company.applicantUserId,
        role: 'admin',
        status: MemberStatus.Active,
        createdAt: now,
        updatedAt: now,
      });
    });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

export async function searchVerifiedCompanies(db: Db, keyword: string, creditCode: string | null) {
  return db
    .select({ companyId: companies.id, companyName: companies.name, creditCode: companies.creditCode })
    .from(companies)
    .where(
      and(
        eq(companies.status, CompanyStatus.Verified),
        creditCode
          ? or(eq(companies.creditCode, creditCode), ilike(companies.name, containsPattern(keyword)))
          : ilike(companies.name, containsPattern(keyword)),
      ),
    )
    .orderBy(asc(companies.name))
    .limit(10);
}

export async function findCompanyByInviteCode(db: Db, code: string): Promise<CompanyRow | undefined> {
  const rows = await db
    .select()
    .from(companies)
    .where(and(eq(companies.inviteCode, code), eq(companies.status, CompanyStatus.Verified)))
    .limit(1);
  return rows[0];
}

export async function setInviteCode(db: Db, companyId: string, code: string) {
  await db.update(companies).set({ inviteCode: code }).where(eq(companies.id, companyId));
}

// ---- members ----

export async function findMembership(
  db: Db,
  companyId: string,
  userId: string,
): Promise<MemberRow | undefined> {
  const rows = await db
    .select(memberColumns)
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)))
    .limit(1);
  return (await withUsers(db, rows))[0];
}

/** A member row of THIS company only: an id of another company's member finds nothing. */
export async function findMemberInCompany(
  db: Db,
  companyId: string,
  memberId: string,
): Promise<MemberRow | undefined> {
  const rows = await db
    .select(memberColumns)
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.id, memberId)))
    .limit(1);
  return (await withUsers(db, rows))[0];
}

/** Creates the membership or, for a former (removed/rejected) one, starts it again. */
export async function upsertMember(
  db: Db,
  v: { companyId: string; userId: string; role: MemberRole; status: MemberStatus; now: Date },
): Promise<void> {
  await db
    .insert(companyMembers)
    .values({ ...v, createdAt: v.now, updatedAt: v.now })
    .onConflictDoUpdate({
      target: [companyMembers.companyId, companyMembers.userId],
      set: { role: v.role, status: v.status, createdAt: v.now, updatedAt: v.now },
    });
}

/** Moves a member of `companyId` from one of `from` states to `to`; false when it was not in those states. */
export async function setMemberStatus(
  db: Db,
  companyId: string,
  memberId: string,
  from: readonly MemberStatus[],
  to: MemberStatus,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(companyMembers)
    .set({ status: to, updatedAt: now })
    .where(
      and(
        eq(companyMembers.companyId, companyId),
        eq(companyMembers.id, memberId),
        eq(companyMembers.role, 'operator'),
        sql`${companyMembers.status} in (${sql.join(
          from.map((s) => sql`${s}`),
          sql`, `,
        )})`,
      ),
    )
    .returning({ id: companyMembers.id });
  return rows.length > 0;
}

/** Hands the administrator role of `companyId` from one member to another active operator, atomically. */
export async function swapAdmin(
  db: Db,
  companyId: string,
  fromUserId: string,
  toMemberId: string,
  now: Date,
) {
  return db.transaction(async (tx) => {
    const demoted = await tx
      .update(companyMembers)
      .set({ role: 'operator', updatedAt: now })
      .where(
        and(
          eq(companyMembers.companyId, companyId),
          eq(companyMembers.userId, fromUserId),
          eq(companyMembers.role, 'admin'),
          eq(companyMembers.status, MemberStatus.Active),
        ),
      )
      .returning({ id: companyMembers.id });
    if (demoted.length === 0) return false;
    const promoted = await tx
      .update(companyMembers)
      .set({ role: 'admin', updatedAt: now })
      .where(
        and(
          eq(companyMembers.companyId, companyId),
          eq(companyMembers.id, toMemberId),
          eq(companyMembers.role, 'operator'),
          eq(companyMembers.status, MemberStatus.Active),
        ),
      )
      .returning({ id: companyMembers.id });
    if (promoted.length === 0) throw new HandOverRaced();
    return true;
  });
}

/** Thrown inside swapAdmin's transaction to roll back the demotion when the target stopped qualifying. */
export class HandOverRaced extends Error {}

/**
 * The user ids among the members `inCompany` selects that `match` finds (picker-keyword.ts). Names and phones
 * are the session module's: a phone is looked up whole (equality, never a pattern); a name is searched among
 * this company's members as a literal, case-insensitive part of it. The name search's answer is checked again
 * here against the names.
 */
async function membersMatching(db: Db, inCompany: SQL | undefined, match: PickerKeyword): Promise<string[]> {
  if ('none' in match) return [];
  const ids = (await db.select({ userId: companyMembers.userId }).from(companyMembers).where(inCompany)).map(
    (r) => r.userId,
  );
  if (ids.length === 0) return [];
  if ('phone' in match) {
    const members = new Set(ids);
    return (await findUsersByPhoneOrName(db, { phone: match.phone }))
      .filter((u) => u.phone === match.phone && members.has(u.userId))
      .map((u) => u.userId);
  }
  const candidates = [...(await userIdsWithNameLike(db, ids, match.name))];
  const names = await usersByIds(db, candidates);
  const wanted = match.name.toLowerCase();
  return candidates.filter((id) => names.get(id)?.name?.toLowerCase().includes(wanted));
}

export async function listMembers(
  db: Db,
  companyId: string,
  q: {
    match?: PickerKeyword;
    status?: MemberStatus;
    activeOnly?: boolean;
    pageNum: number;
    pageSize: number;
  },
): Promise<{ list: MemberRow[]; total: number }> {
  const inCompany = and(
    eq(companyMembers.companyId, companyId),
    q.activeOnly
      ? eq(companyMembers.status, MemberStatus.Active)
      : q.status
        ? eq(companyMembers.status, q.status)
        : ne(companyMembers.status, MemberStatus.Removed),
  );
  let where = inCompany;
  if (q.match) {
    const matching = await membersMatching(db, inCompany, q.match);
    if (matching.length === 0) return { list: [], total: 0 };
    where = and(inCompany, inArray(companyMembers.userId, matching));
  }
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(companyMembers)
    .where(where);
  const list = await db
    .select(memberColumns)
    .from(companyMembers)
    .where(where)
    // Administrator first, then pending requests (they need attention), then by joining time.
    .orderBy(
      sql`case when ${companyMembers.role} = 'admin' then 0 when ${companyMembers.status} = 'pending' then 1 else 2 end`,
      asc(companyMembers.createdAt),
      asc(companyMembers.id),
    )
    .limit(q.pageSize)
    .offset((q.pageNum - 1) * q.pageSize);
  return { list: await withUsers(db, list), total };
}

export async function countMembers(db: Db, companyId: string) {
  const rows = await db
    .select({ status: companyMembers.status, role: companyMembers.role, n: sql<number>`count(*)::int` })
    .from(companyMembers)
    .where(eq(companyMembers.companyId, companyId))
    .groupBy(companyMembers.status, companyMembers.role);
  const n = (status: MemberStatus, role?: MemberRole) =>
    rows.filter((r) => r.status === status && (!role || r.role === role)).reduce((a, r) => a + r.n, 0);
  return {
    active: n(MemberStatus.Active),
    activeOperators: n(MemberStatus.Active, 'operator'),
    pending: n(MemberStatus.Pending),
  };
}

/** Every membership of a user, with the company's name (verified companies only). */
export async function membershipsOf(db: Db, userId: string) {
  return db
    .select({
      memberId: companyMembers.id,
      companyId: companies.id,
      companyName: companies.name,
      role: companyMembers.role,
      status: companyMembers.status,
      updatedAt: companyMembers.updatedAt,
    })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(
      and(
        eq(companyMembers.userId, userId),
        eq(companies.status, CompanyStatus.Verified),
        ne(companyMembers.status, MemberStatus.Removed),
      ),
    )
    .orderBy(asc(companies.name));
}

/** One user's membership of one company, with the company's name and status (requireCompanyRole). */
export async function membershipOf(db: Db, companyId: string, userId: string) {
  const rows = await db
    .select({
      role: companyMembers.role,
      status: companyMembers.status,
      name: companies.name,
      cs: companies.status,
    })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)))
    .limit(1);
  return rows[0];
}

/** A company's public fields by id, whatever its status. */
export async function companySummary(db: Db, companyId: string) {
  const rows = await db
    .select({
      id: companies.id,
      name: companies.name,
      creditCode: companies.creditCode,
      legalRepName: companies.legalRepName,
      status: companies.status,
    })
    .from(companies)
    .where(eq(companies.id, companyId))
    .limit(1);
  return rows[0];
}

/** Active members of a company with their names and phones, by joining time. */
export async function activeMembersOf(db: Db, companyId: string) {
  const list = await db
    .select({ userId: companyMembers.userId, role: companyMembers.role })
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.status, MemberStatus.Active)))
    .orderBy(asc(companyMembers.createdAt));
  return withUsers(db, list);
}

/** Verified companies where the user is an active member, by name. */
export async function verifiedCompaniesWhereActive(db: Db, userId: string) {
  return db
    .select({ id: companies.id, name: companies.name, role: companyMembers.role })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(
      and(
        eq(companyMembers.userId, userId),
        eq(companyMembers.status, MemberStatus.Active),
        eq(companies.status, CompanyStatus.Verified),
      ),
    )
    .orderBy(asc(companies.name), asc(companies.id));
}

/** The id of the verified company with this exact name, if any (templates name a company party by name). */
export async function verifiedCompanyIdByName(db: Db, name: string): Promise<string | undefined> {
  const rows = await db
    .select({ id: companies.id })
    .from(companies)
    .where(and(eq(companies.name, name), eq(companies.status, CompanyStatus.Verified)))
    .orderBy(asc(companies.id))
    .limit(1);
  return rows[0]?.id;
}

/**
 * A company by its exact name (the flow module's launch and readiness look-ups): a verified one first, the
 * lowest id among equals; only verified ones with `verifiedOnly`.
 */
export async function findCompanyByName(
  db: Db,
  name: string,
  opts: { verifiedOnly: boolean },
): Promise<{ id: string; status: string } | undefined> {
  const byName = eq(companies.name, name);
  const rows = await db
    .select({ id: companies.id, status: companies.status })
    .from(companies)
    .where(opts.verifiedOnly ? and(byName, eq(companies.status, CompanyStatus.Verified)) : byName)
    .orderBy(desc(sql`${companies.status} = ${CompanyStatus.Verified}`), asc(companies.id))
    .limit(1);
  return rows[0];
}
