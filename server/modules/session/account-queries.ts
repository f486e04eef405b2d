import { and, asc, desc, eq, ilike, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { type UserStatus, smsCodes, smsLocks, users } from '../../db/schema/accounts.ts';

// SQL of users and SMS codes.

type UserRow = {
  id: string;
  phone: string;
  passwordHash: string;
  name: string | null;
  status: UserStatus;
};

export async function findUserByPhone(db: Db, phone: string): Promise<UserRow | null> {
  const rows = await db
    .select({
      id: users.id,
      phone: users.phone,
      passwordHash: users.passwordHash,
      name: users.name,
      status: users.status,
    })
    .from(users)
    .where(eq(users.phone, phone))
    .limit(1);
  return rows[0] ?? null;
}

export async function findUserById(db: Db, userId: string): Promise<UserRow | null> {
  const rows = await db
    .select({
      id: users.id,
      phone: users.phone,
      passwordHash: users.passwordHash,
      name: users.name,
      status: users.status,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return rows[0] ?? null;
}

/** Names and phones of the users among `ids` (other modules show who holds what). */
export async function usersByIds(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, { name: string | null; phone: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.name, phone: users.phone })
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, { name: r.name, phone: r.phone }]));
}

/**
 * The ids among `ids` whose NAME contains `keyword` (case-insensitive, taken literally: % and _ match
 * themselves). The company module's member lists search so. Never a phone: a part of a phone would let a
 * picker recover whole numbers digit by digit (issue 23, M1); a phone is looked up whole (findUsersByPhoneOrName).
 */
export async function userIdsWithNameLike(
  db: Db,
  ids: readonly string[],
  keyword: string,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const pattern = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, [...new Set(ids)]), ilike(users.name, pattern)));
  return new Set(rows.map((r) => r.id));
}

/** Up to 10 users with this phone, or else this exact name, oldest first (company pickers). */
export async function findUsersByPhoneOrName(db: Db, by: { phone?: string; name?: string }) {
  return db
    .select({ userId: users.id, name: users.name, phone: users.phone, status: users.status })
    .from(users)
    .where(by.phone ? eq(users.phone, by.phone) : eq(users.name, by.name ?? ''))
    .orderBy(asc(users.createdAt))
    .limit(10);
}

/** Inserts a user; null when the phone is taken (also under a concurrent registration). */
export async function insertUser(
  db: Db,
  phone: string,
  passwordHash: string,
  now: Date,
): Promise<string | null> {
  const rows = await db
    .insert(users)
    .values({ phone, passwordHash, createdAt: now })
    .onConflictDoNothing({ target: users.phone })
    .returning({ id: users.id });
  return rows[0]?.id ?? null;
}

export async function setPassword(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

/** The user's real name, once the person module has verified the identity. */
export async function setUserName(db: Db, userId: string, name: string): Promise<void> {
  await db.update(users).set({ name }).where(eq(users.id, userId));
}

/** Moves a user to a new phone; false when another user holds that phone (also concurrently). */
export async function moveUserPhone(db: Db, userId: string, newPhone: string): Promise<boolean> {
  const taken = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.phone, newPhone), ne(users.id, userId)))
    .limit(1);
  if (taken.length) return false;
  try {
    await db.update(users).set({ phone: newPhone }).where(eq(users.id, userId));
    return true;
  } catch (err) {
    // Expected: the unique index on users.phone, when someone registered the phone in between.
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/** Where a user's notices are e-mailed (messaging module): address, language; null when no such user. */
export async function noticeEmailOf(db: Db, userId: string) {
  const rows = await db
    .select({ email: users.email, lang: users.emailLang })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return rows[0] ?? null;
}

export async function setNoticeEmail(
  db: Db,
  userId: string,
  v: { email: string | null; lang: 'zh' | 'en'; platform: string | null },
): Promise<void> {
  await db
    .update(users)
    .set({ email: v.email, emailLang: v.lang, emailPlatform: v.platform })
    .where(eq(users.id, userId));
}

export async function setUserStatus(db: Db, userId: string, status: UserStatus): Promise<void> {
  await db.update(users).set({ status }).where(eq(users.id, userId));
}

export async function latestSmsCode(db: Db, phone: string, purpose: string) {
  const rows = await db
    .select()
    .from(smsCodes)
    .where(and(eq(smsCodes.phone, phone), eq(smsCodes.purpose, purpose)))
    .orderBy(desc(smsCodes.createdAt))
    .limit(1);
  return rows[0] ?? null;
}

export async function insertSmsCode(
  db: Db,
  v: { phone: string; purpose: string; codeHash: string; now: Date; expiresAt: Date },
): Promise<void> {
  // A new code replaces the earlier unused ones of the same purpose.
  await db
    .update(smsCodes)
    .set({ usedAt: v.now })
    .where(and(eq(smsCodes.phone, v.phone), eq(smsCodes.purpose, v.purpose), isNull(smsCodes.usedAt)));
  await db.insert(smsCodes).values({
    phone: v.phone,
    purpose: v.purpose,
    codeHash: v.codeHash,
    createdAt: v.now,
    expiresAt: v.expiresAt,
  });
}

/** Marks a code used if it still is unused; true when this call was the one that used it. */
export async function markSmsCodeUsed(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(smsCodes)
    .set({ usedAt: now })
    .where(and(eq(smsCodes.id, id), isNull(smsCodes.usedAt)))
    .returning({ id: smsCodes.id });
  return rows.length === 1;
}

/** Counts one wrong guess against a code; returns the guesses now on record. */
export async function addSmsAttempt(db: Db, id: string): Promise<number> {
  const rows = await db
    .update(smsCodes)
    .set({ attempts: sql`${smsCodes.attempts} + 1` })
    .where(eq(smsCodes.id, id))
    .returning({ attempts: smsCodes.attempts });
  return rows[0]?.attempts ?? 0;
}

/** Whose wrong codes are counted together: one phone, one purpose, one client (address). */
export type SmsLockKey = { phone: string; purpose: string; client: string };

const lockWhere = (k: SmsLockKey) =>
  and(eq(smsLocks.phone, k.phone), eq(smsLocks.purpose, k.purpose), eq(smsLocks.client, k.client));

export async function findSmsLock(db: Db, k: SmsLockKey) {
  const rows = await db.select().from(smsLocks).where(lockWhere(k)).limit(1);
  return rows[0] ?? null;
}

/** Counts one wrong code; returns the failures now on record. */
export async function addSmsFailure(db: Db, k: SmsLockKey): Promise<number> {
  const rows = await db
    .insert(smsLocks)
    .values({ ...k, failures: 1 })
    .onConflictDoUpdate({
      target: [smsLocks.phone, smsLocks.purpose, smsLocks.client],
      set: { failures: sql`${smsLocks.failures} + 1` },
    })
    .returning({ failures: smsLocks.failures });
  return rows[0].failures;
}

export async function lockSms(db: Db, k: SmsLockKey, until: Date): Promise<void> {
  await db.update(smsLocks).set({ failures: 0, lockedUntil: until }).where(lockWhere(k));
}

export async function clearSmsFailures(db: Db, k: SmsLockKey): Promise<void> {
  await db.update(smsLocks).set({ failures: 0 }).where(lockWhere(k));
}
