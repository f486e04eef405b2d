import { createHash, randomInt } from 'node:crypto';
import { Code } from '#contract/codes.ts';
import { SmsPurpose } from '#contract/enums.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { hitCounter } from '../../db/rate-counter.ts';
import { SmsNotSentError } from '../../messaging/messenger.ts';
import {
  addSmsAttempt,
  addSmsFailure,
  clearSmsFailures,
  findSmsLock,
  findUserByPhone,
  insertSmsCode,
  latestSmsCode,
  lockSms,
  markSmsCodeUsed,
  type SmsLockKey,
} from './account-queries.ts';
import { S } from './texts.ts';

const HOUR_MS = 60 * 60 * 1000;

// Only a hash of the code is stored; phone and purpose are mixed in so equal codes hash differently.
const hashCode = (phone: string, purpose: string, code: string) =>
  createHash('sha256').update(`${phone}:${purpose}:${code}`).digest('hex');

const PURPOSE_TEXT: Record<string, { zh: string; en: string }> = {
  [SmsPurpose.Register]: { zh: '注册', en: 'registration' },
  [SmsPurpose.Login]: { zh: '登录', en: 'login' },
  [SmsPurpose.ResetPassword]: { zh: '重置密码', en: 'password reset' },
  [SmsPurpose.RoomLogin]: { zh: '签署室登录', en: 'signing-room login' },
  [SmsPurpose.Sign]: { zh: '签署', en: 'signing' },
  [SmsPurpose.RealName]: { zh: '实名认证', en: 'identity verification' },
};

/**
 * Where a code is stored and counted: its purpose, and for a code asked from a signing room the room's party
 * too (issue 23). A room's code then proves only what that party's room asked it for (a signing code of flow
 * 1 does not sign flow 2), its hourly allowance is that party's own, and no public call can spend it.
 */
const storedPurpose = (purpose: string, scope?: string) => (scope ? `${purpose}@${scope}` : purpose);

/**
 * Wrong codes count per phone, purpose and client (address): a lock stops only the client that earned it,
 * for that one purpose. So nobody can lock a person out of signing or the signing room by typing wrong
 * password-reset codes, nor out of the signing room from another address. Guessing stays bounded: every
 * code also dies after SMS_MAX_WRONG wrong guesses in all (from any client), and a new one must be asked.
 */
async function assertNotLocked(deps: AppDeps, key: SmsLockKey, now: Date) {
  const lock = await findSmsLock(deps.db, key);
  if (lock?.lockedUntil && lock.lockedUntil.getTime() > now.getTime()) {
    const minutes = Math.ceil((lock.lockedUntil.getTime() - now.getTime()) / 60_000);
    throw new AppError(Code.SmsLocked, S.smsLocked(minutes));
  }
  return lock;
}

/**
 * What the SMS adds when the phone's account is not what the purpose expects. Only the phone's owner
 * reads it: the answer to the caller is the same either way (issue 16, no account discovery).
 */
function accountNote(purpose: string, hasAccount: boolean, publicUrl: string): { zh: string; en: string } {
  if (purpose === SmsPurpose.Register && hasAccount)
    return {
      zh: `该手机号已有账号，可直接登录或找回密码：${publicUrl}/#/loginPage`,
      en: ` This number already has an account: log in or reset your password at ${publicUrl}/#/loginPage`,
    };
  if ((purpose === SmsPurpose.Login || purpose === SmsPurpose.ResetPassword) && !hasAccount)
    return {
      zh: `该手机号尚未注册账号，请先注册：${publicUrl}/#/registerPage`,
      en: ` No account uses this number yet; register at ${publicUrl}/#/registerPage`,
    };
  return { zh: '', en: '' };
}

/**
 * Sends a 6-digit code for one purpose. The answer never depends on whether the phone has an account
 * (register, login and password reset alike): the same checks, the same writes, the same SMS, whose
 * text alone tells the phone's owner that the number already has an account (register) or has none
 * (login, reset). The calls that use the code say so only once the code has proven the phone.
 */
export async function sendSmsCode(
  deps: AppDeps,
  phone: string,
  purpose: string,
  ip: string,
  /** A signing room's party (`party:<id>`): the code is that room's alone (storedPurpose). */
  scope?: string,
) {
  const now = deps.clock.now();
  const { sms } = deps.config;
  const stored = storedPurpose(purpose, scope);
  await assertNotLocked(deps, { phone, purpose: stored, client: ip }, now);
  // The address limit comes first: it is what stops a script from probing many phones.
  if ((await hitCounter(deps.db, `sms-ip:${ip}`, HOUR_MS, now)) > sms.maxPerIpHour) {
    throw new AppError(Code.RateLimited, S.smsTooMany);
  }
  const hasAccount = (await findUserByPhone(deps.db, phone)) !== null;
  const latest = await latestSmsCode(deps.db, phone, stored);
  if (latest) {
    const waitMs = latest.createdAt.getTime() + sms.resendSeconds * 1000 - now.getTime();
    if (waitMs > 0) {
      const retryAfterSeconds = Math.ceil(waitMs / 1000);
      throw new AppError(Code.RateLimited, S.resendWait(retryAfterSeconds), { data: { retryAfterSeconds } });
    }
  }
  // Per purpose (and room) too: codes asked without logging in (a password reset) never use up a signer's.
  if ((await hitCounter(deps.db, `sms-phone:${phone}:${stored}`, HOUR_MS, now)) > sms.maxPerPhoneHour) {
    throw new AppError(Code.RateLimited, S.smsTooMany);
  }
  const answer = { expiresInSeconds: sms.codeTtlSeconds, resendAfterSeconds: sms.resendSeconds };
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await insertSmsCode(deps.db, {
    phone,
    purpose: stored,
    codeHash: hashCode(phone, stored, code),
    now,
    expiresAt: new Date(now.getTime() + sms.codeTtlSeconds * 1000),
  });
  const what = PURPOSE_TEXT[purpose] ?? { zh: '验证', en: 'verification' };
  const minutes = Math.round(sms.codeTtlSeconds / 60);
  const note = accountNote(purpose, hasAccount, deps.config.publicUrl);
  const text =
    `【电子签章】您的${what.zh}验证码为 ${code}，${minutes} 分钟内有效，请勿泄露。${note.zh}` +
    ` [e-Sign] Your ${what.en} code is ${code}, valid for ${minutes} minutes. Do not share it.${note.en}`;
  try {
    await deps.messenger.sendSms(phone, purpose, text, code);
  } catch (err) {
    // The gateway's named failure reaches the person as the refusal; any other error stays an error.
    if (err instanceof SmsNotSentError) throw new AppError(Code.SmsNotSent, err.text);
    throw err;
  }
  return answer;
}

/**
 * Uses the latest code sent to a phone for a purpose: once, within its lifetime. A wrong, expired or
 * replayed code counts as a failure of this client for this purpose; SMS_MAX_WRONG failures lock that
 * client's codes of that purpose for SMS_LOCK_MINUTES. `client` is the caller's address; `scope` the signing
 * room's party the code was asked for (only a code sent for that scope is accepted). Answers when the code
 * was sent (the audit entry of what it confirmed names its sending).
 */
export async function consumeSmsCode(
  deps: AppDeps,
  phone: string,
  purpose: string,
  code: string,
  client = '',
  scope?: string,
): Promise<{ sentAt: Date }> {
  const now = deps.clock.now();
  const { sms } = deps.config;
  const stored = storedPurpose(purpose, scope);
  const key = { phone, purpose: stored, client };
  const lock = await assertNotLocked(deps, key, now);
  const latest = await latestSmsCode(deps.db, phone, stored);
  const isValid =
    latest !== null &&
    latest.usedAt === null &&
    latest.attempts < sms.maxWrong &&
    latest.expiresAt.getTime() > now.getTime() &&
    latest.codeHash === hashCode(phone, stored, code);
  if (isValid && (await markSmsCodeUsed(deps.db, latest.id, now))) {
    // Only a client with wrong codes on record has any to clear (most have none: no write then).
    if (lock && lock.failures > 0) await clearSmsFailures(deps.db, key);
    return { sentAt: latest.createdAt };
  }
  if (latest && latest.usedAt === null) await addSmsAttempt(deps.db, latest.id);
  const failures = await addSmsFailure(deps.db, key);
  if (failures >= sms.maxWrong) {
    await lockSms(deps.db, key, new Date(now.getTime() + sms.lockMinutes * 60_000));
    throw new AppError(Code.SmsLocked, S.smsLocked(sms.lockMinutes));
  }
  throw new AppError(Code.SmsCodeInvalid, S.smsInvalid);
}
