import type { FastifyReply } from 'fastify';
import argon2 from 'argon2';
import { Code } from '#contract/codes.ts';
import { SmsPurpose, UserType } from '#contract/enums.ts';
import { SessionEndReason, UserStatus } from '../../db/schema/accounts.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { T } from '../../http/texts.ts';
import { hitSlidingCounter, resetCounter } from '../../db/rate-counter.ts';
import { findUserByPhone, insertUser, setPassword } from './account-queries.ts';
import { actingCompanies } from './hooks.ts';
import { consumeSmsCode } from './sms-service.ts';
import { endUserSessions } from './session-queries.ts';
import { type LiveSession, startSession } from './session-service.ts';
import { S } from './texts.ts';

// OWASP's argon2id baseline (19 MiB, 2 passes): strong enough, and quick enough for a login under load.
const ARGON2 = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
/** The login limits count the attempts of the last 15 minutes (a sliding window, not fixed 15-minute blocks). */
const LOGIN_WINDOW_MS = 15 * 60 * 1000;

export const hashPassword = (password: string) => argon2.hash(password, ARGON2);

// Verified against when the phone is unknown, so that a wrong phone costs as long as a wrong password.
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => {
  dummyHash ??= argon2.hash('dummy-password-for-timing-1', ARGON2);
  return dummyHash;
};

export async function registerPerson(
  deps: AppDeps,
  reply: FastifyReply,
  input: { phone: string; password: string; smsCode: string },
  ip = '',
): Promise<LiveSession> {
  // The code first: until the phone is proven, the answer must not tell whether it has an account (issue 16).
  await consumeSmsCode(deps, input.phone, SmsPurpose.Register, input.smsCode, ip);
  if (await findUserByPhone(deps.db, input.phone)) throw new AppError(Code.PhoneTaken, S.phoneTaken);
  const userId = await insertUser(deps.db, input.phone, await hashPassword(input.password), deps.clock.now());
  if (!userId) throw new AppError(Code.PhoneTaken, S.phoneTaken);
  return startSession(deps, reply, { userId, userType: UserType.Person, companyId: null });
}

/**
 * Checks phone and password, with brute-force limits: attempts per client address and failed attempts
 * per phone in any 15 minutes (sliding window, db/rate-counter.ts; a refused attempt counts too). A
 * disabled account is told so (4000) only after the right password.
 */
async function authenticate(deps: AppDeps, phone: string, password: string, ip: string) {
  const now = deps.clock.now();
  if (
    (await hitSlidingCounter(deps.db, `login-ip:${ip}`, LOGIN_WINDOW_MS, now)) > deps.config.login.maxPerIp
  ) {
    throw new AppError(Code.RateLimited, S.loginTooMany);
  }
  const failKey = `login-fail:${phone}`;
  const failuresSoFar = await hitSlidingCounter(deps.db, failKey, LOGIN_WINDOW_MS, now);
  if (failuresSoFar > deps.config.login.maxFailedPerPhone)
    throw new AppError(Code.RateLimited, S.loginTooMany);
  const user = await findUserByPhone(deps.db, phone);
  const isMatch = await argon2.verify(user?.passwordHash ?? (await getDummyHash()), password);
  if (!user || !isMatch) throw new AppError(Code.BadCredentials, S.badCredentials);
  // The hit above counted this attempt as a failure in advance; a success forgets the phone's failures.
  await resetCounter(deps.db, failKey);
  if (user.status !== UserStatus.Active) throw new AppError(Code.AccountDisabled, T.accountDisabled);
  return user;
}

/**
 * The companies a user may act for: verified companies where the user is an ACTIVE member (the company
 * module decides, through the `actingCompanies` hook; a pending, disabled or removed member cannot log
 * into the company).
 */
export async function companiesOf(deps: AppDeps, userId: string): Promise<{ id: string; name: string }[]> {
  const answers = await deps.hooks.collect(actingCompanies, { deps, userId });
  if (answers.length !== 1) throw new Error(`actingCompanies needs one listener, has ${answers.length}`);
  return answers[0];
}

export async function loginPerson(
  deps: AppDeps,
  reply: FastifyReply,
  input: { phone: string; password: string; userType: number; companyId?: string },
  ip: string,
  previous: LiveSession | null,
): Promise<LiveSession> {
  const user = await authenticate(deps, input.phone, input.password, ip);
  let companyId: string | null = null;
  if (input.userType === UserType.Company) {
    const companies = await companiesOf(deps, user.id);
    const company = input.companyId ? companies.find((c) => c.id === input.companyId) : companies[0];
    if (!company) throw new AppError(Code.Refused, S.noCompany);
    companyId = company.id;
  }
  return startSession(deps, reply, { userId: user.id, userType: input.userType, companyId }, previous);
}

/** Sets a new password with a reset code and ends every session of the user (a thief's included). */
export async function resetPassword(
  deps: AppDeps,
  input: { phone: string; smsCode: string; newPassword: string },
  ip = '',
) {
  await consumeSmsCode(deps, input.phone, SmsPurpose.ResetPassword, input.smsCode, ip);
  const user = await findUserByPhone(deps.db, input.phone);
  // The code proved the phone: its owner may learn that it has no account (the SMS said so too).
  if (!user) throw new AppError(Code.NotFound, S.phoneNotRegistered);
  await setPassword(deps.db, user.id, await hashPassword(input.newPassword));
  await endUserSessions(deps.db, user.id, SessionEndReason.PasswordReset, deps.clock.now());
}
