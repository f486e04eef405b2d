import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { SessionEndReason } from '../../db/schema/accounts.ts';
import type { AppDeps } from '../../deps.ts';
import * as q from './account-queries.ts';
import { hashPassword } from './account-service.ts';
import { endOtherSessions, setSessionIdentity } from './session-queries.ts';
import type { LiveSession } from './session-service.ts';

// What other modules may ask of the accounts (the users table is this module's): who a user is, and the few
// changes another module's use case makes to an account. Each is named for what it does for its caller.

/** An account as other modules see it. */
export type User = q.UserRow;

/** The account with this id, or null. */
export const findUserById = (db: Db, userId: string): Promise<User | null> => q.findUserById(db, userId);

/** The account of this phone, or null. */
export const findUserByPhone = (db: Db, phone: string): Promise<User | null> => q.findUserByPhone(db, phone);

/** Names and phones of the given accounts (the ones that exist). */
export const usersByIds = (db: Db, ids: readonly string[]) => q.usersByIds(db, ids);

/** Of the given accounts, those whose real name contains the keyword (a member picker's search). */
export const userIdsWithNameLike = (db: Db, ids: readonly string[], keyword: string) =>
  q.userIdsWithNameLike(db, ids, keyword);

/** Accounts of a full phone or a real name (an administrator adding a member). */
export const findUsersByPhoneOrName = (db: Db, by: { phone?: string; name?: string }) =>
  q.findUsersByPhoneOrName(db, by);

/** Where a user's notices are e-mailed, and in which language; null when no such user. */
export const noticeEmailOf = (db: Db, userId: string) => q.noticeEmailOf(db, userId);

/** Sets (or, with a null address, clears) where a user's notices are e-mailed. */
export const setNoticeEmail = (
  db: Db,
  userId: string,
  v: { email: string | null; lang: 'zh' | 'en'; platform: string | null },
) => q.setNoticeEmail(db, userId, v);

/**
 * The account of a signer's phone, made now when there is none: a normal person account with a password
 * nobody knows (its owner logs in by a signing room or a partner, or sets one with "forgot password"). A
 * concurrent request for the same phone gets the same account. `isNew` tells whether this call made it.
 */
export async function createSignerAccount(
  deps: AppDeps,
  phone: string,
): Promise<{ userId: string; isNew: boolean }> {
  const existing = await q.findUserByPhone(deps.db, phone);
  if (existing) return { userId: existing.id, isNew: false };
  const unusable = await hashPassword(randomBytes(32).toString('base64url'));
  const made = await q.insertUser(deps.db, phone, unusable, deps.clock.now());
  if (made) return { userId: made, isNew: true };
  const raced = await q.findUserByPhone(deps.db, phone);
  if (!raced)
    throw new Error(`the account of a phone vanished while it was being made (user of ${phone.slice(-4)})`);
  return { userId: raced.id, isNew: false };
}

/** Records the real name an identity check verified (the person module's real-name step). */
export const renameUser = (deps: AppDeps, userId: string, name: string) =>
  q.setUserName(deps.db, userId, name);

/**
 * Moves the session's account to a new phone and ends every other session of it (whoever holds the lost
 * phone, or an old browser, must not keep acting as the account). False when another account holds the phone.
 */
export async function movePhone(deps: AppDeps, session: LiveSession, newPhone: string): Promise<boolean> {
  if (!(await q.moveUserPhone(deps.db, session.userId, newPhone))) return false;
  await endOtherSessions(deps.db, session.userId, session.id, SessionEndReason.Evicted, deps.clock.now());
  return true;
}

/** Points the session at another of its user's identities (the person, or a company of theirs). */
export const switchSessionIdentity = (
  deps: AppDeps,
  session: LiveSession,
  userType: number,
  companyId: string | null,
) => setSessionIdentity(deps.db, session.id, userType, companyId);
