// The intent check of a party (issue 11): what confirms, right before the signature, that the signer means
// to sign. The launcher chose it per party: an SMS code (as before), a face check through the identity
// provider, or the signer's signing password. Nothing the browser says about a result is trusted: a face
// check counts only when the provider's signed callback (or the server's own query) passed it, for this
// party and this signer, recently, and only once.
import type { Actor } from '../../lib/actor.ts';
import { FaceOpenFlag } from '#contract/rules/person.ts';
import { Code } from '#contract/codes.ts';
import { SmsPurpose } from '#contract/enums.ts';
import argon2 from 'argon2';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { spendFaceCheck, startFaceFor } from '../person/index.ts';
import { hashPassword } from '../session/index.ts';
import { findUserById } from '../session/index.ts';
import { consumeSmsCode } from '../session/index.ts';
import type { Party } from './model.ts';
import { type Room, roomSmsScope, roomState, signRefusal } from './room.ts';
import { dateOf } from '../../db/sql-helpers.ts';
import * as q from './queries.ts';
import { F } from './texts.ts';

export type IntentCheck = 'sms' | 'face' | 'password';

/** A passed face check confirms a signature of its party for this long after the provider decided it. */
const FACE_INTENT_WINDOW_MS = 10 * 60 * 1000;
/** Wrong signing passwords before the lock, and how long the lock lasts. */
const SIGNING_PASSWORD_MAX_WRONG = 5;
const SIGNING_PASSWORD_LOCK_MS = 15 * 60 * 1000;

export const intentOf = (p: Party): IntentCheck => (p.intent as IntentCheck | undefined) ?? 'sms';

type IntentInput = { smsCode?: string; signingPassword?: string };

/** The intent check that confirmed a signature, and for an SMS code when it was sent (the audit names it). */
type ConfirmedIntent = { check: IntentCheck; codeSentAt: Date | null };

/**
 * Checks the party's intent check for `userId` (the signer the room proved) and uses it up: the SMS code (one
 * sent for THIS party's room: issue 23, L1) is consumed, a face result is marked used, a signing password
 * counts failures and locks. Answers the check for the audit entry.
 */
export async function confirmIntent(
  deps: AppDeps,
  room: Room,
  party: Party,
  userId: string,
  input: IntentInput,
  ip: string,
): Promise<ConfirmedIntent> {
  const intent = intentOf(party);
  if (intent === 'sms') {
    if (!input.smsCode) throw new AppError(Code.SmsCodeInvalid, F.intentSmsMissing);
    const code = await consumeSmsCode(
      deps,
      room.phone,
      SmsPurpose.Sign,
      input.smsCode,
      ip,
      roomSmsScope(party.id),
    );
    return { check: intent, codeSentAt: code.sentAt };
  }
  if (intent === 'password') {
    // No password given (an old client sending only the SMS code): refused without counting a failure.
    if (!input.signingPassword) throw new AppError(Code.IntentNotConfirmed, F.intentPasswordMissing);
    await checkSigningPassword(deps, userId, input.signingPassword ?? '');
    return { check: intent, codeSentAt: null };
  }
  await spendFaceIntent(deps, userId, party.id);
  return { check: intent, codeSentAt: null };
}

/**
 * Spends the face check `userId` passed for `businessCode` (a party's id in a room, a batch's id for a batch)
 * within FACE_INTENT_WINDOW_MS; refused (1202) when there is none.
 */
export async function spendFaceIntent(deps: AppDeps, userId: string, businessCode: string): Promise<void> {
  const used = await spendFaceCheck(deps, {
    userId,
    openFlag: FaceOpenFlag.SigningRoom,
    businessCode,
    withinMs: FACE_INTENT_WINDOW_MS,
  });
  if (!used) throw new AppError(Code.IntentNotConfirmed, F.intentFaceMissing);
}

/** Starts the identity provider's face check of `userId` for `businessCode`; the provider returns to signUrl. */
export async function startFaceIntent(
  deps: AppDeps,
  userId: string,
  businessCode: string,
  body: { deviceType: 'h5' | 'pc'; signUrl: string },
) {
  const started = await startFaceFor(deps, userId, {
    openFlag: FaceOpenFlag.SigningRoom,
    businessCode,
    deviceType: body.deviceType,
    signUrl: body.signUrl,
  });
  return { url: started.url, expiresInSeconds: started.expiresInSeconds };
}

export async function checkSigningPassword(deps: AppDeps, userId: string, password: string): Promise<void> {
  const now = deps.clock.now();
  const row = await q.findSigningPassword(deps.db, userId);
  if (!row) throw new AppError(Code.IntentNotConfirmed, F.intentPasswordNotSet);
  const lockedUntil = activeLock(row, now);
  if (lockedUntil)
    throw new AppError(
      Code.SigningPasswordLocked,
      F.intentPasswordLocked(Math.ceil((lockedUntil.getTime() - now.getTime()) / 60_000)),
    );
  const isRight =
    // A stored hash argon2 cannot read is a fault, not a wrong password: it reaches the error envelope.
    password.length > 0 && (await argon2.verify(row.passwordHash, password));
  if (isRight) {
    await q.resetPasswordFailures(deps.db, userId);
    return;
  }
  const failures = (await q.countPasswordFailure(deps.db, userId)) ?? SIGNING_PASSWORD_MAX_WRONG;
  if (failures >= SIGNING_PASSWORD_MAX_WRONG) {
    await q.lockSigningPassword(deps.db, userId, new Date(now.getTime() + SIGNING_PASSWORD_LOCK_MS));
    deps.log.warn({ userId }, 'flow: signing password locked after wrong attempts');
    throw new AppError(Code.SigningPasswordLocked, F.intentPasswordLocked(SIGNING_PASSWORD_LOCK_MS / 60_000));
  }
  throw new AppError(Code.BadCredentials, F.intentPasswordWrong(SIGNING_PASSWORD_MAX_WRONG - failures));
}

/**
 * setSigningPassword: for the logged-in person, or the signer of a room (its phone's account). The SMS code
 * of purpose 'signingPassword' goes to that person's own phone, so only its owner can set it; a room's code
 * is the one that room asked (its party's scope), the logged-in person's the one sendSmsCode sent.
 */
export async function setSigningPassword(
  deps: AppDeps,
  who: { room?: Room; session?: Actor },
  body: { smsCode: string; password: string },
  ip: string,
) {
  const userId = who.room ? who.room.userId : who.session?.userId;
  if (!userId) throw new AppError(Code.Refused, F.intentNeedsAccount);
  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError(Code.Refused, F.intentNeedsAccount);
  const scope = who.room ? roomSmsScope(who.room.partyId) : undefined;
  await consumeSmsCode(deps, user.phone, SmsPurpose.SigningPassword, body.smsCode, ip, scope);
  const now = deps.clock.now();
  const hash = await hashPassword(body.password);
  await q.saveSigningPassword(deps.db, userId, hash, now);
  deps.log.info({ userId }, 'flow: signing password set');
  return { updatedAt: now.toISOString() };
}

/** getSigningPassword: whether the logged-in person has one, when it was set, and any lock still running. */
export async function signingPasswordStatus(deps: AppDeps, session: Actor) {
  const row = await q.findSigningPassword(deps.db, session.userId);
  if (!row) return { isSet: false, updatedAt: null, lockedUntil: null };
  return {
    isSet: true,
    updatedAt: dateOf(row.updatedAt).toISOString(),
    lockedUntil: activeLock(row, deps.clock.now())?.toISOString() ?? null,
  };
}

/** The end of a signing password's lock after wrong attempts, when one still runs at `now`; else null. */
function activeLock(row: Pick<q.SigningPassword, 'lockedUntil'>, now: Date): Date | null {
  const lockedUntil = row.lockedUntil ? dateOf(row.lockedUntil) : null;
  return lockedUntil && lockedUntil.getTime() > now.getTime() ? lockedUntil : null;
}

/** startRoomFaceAuth: a face check of the room's signer, tied to this party (businessCode = party id). */
export async function startRoomFace(
  deps: AppDeps,
  room: Room,
  body: { deviceType: 'h5' | 'pc'; signUrl: string },
) {
  const { flow, party } = await roomState(deps, room);
  const refusal = signRefusal(flow, party, deps.clock.now());
  if (refusal) throw refusal;
  if (intentOf(party) !== 'face') throw new AppError(Code.Refused, F.intentNotFace);
  if (!room.userId) throw new AppError(Code.Refused, F.intentNeedsAccount);
  return startFaceIntent(deps, room.userId, party.id, body);
}
