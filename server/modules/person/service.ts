import type { Actor } from '../../lib/actor.ts';
import type { LiveSession } from '../session/index.ts';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Code } from '#contract/codes.ts';
import { SmsPurpose, UserType } from '#contract/enums.ts';
import type { OpenSignStatus, PersonCert } from '#contract/calls/person.ts';
import { checkIdNumber, IdNumberProblem } from '#contract/rules/id-number.ts';
import { FaceOpenFlag, FaceResult } from '#contract/rules/person.ts';
import { FaceStatus } from '../../db/schema/person.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { T } from '../../http/texts.ts';
import { hitCounter } from '../../db/rate-counter.ts';
import { definePerAppSlot } from '../../lib/per-app.ts';
import type { IssuedCertificate } from '../../pki/issue.ts';
import { evidenceOf, recordEvidence } from '../../providers/evidence.ts';
import { getCompany, requireCompanyRole } from '../company/index.ts';
import { pkiFor, presentCertSummary } from '../pki/index.ts';
import { findUserById, findUserByPhone, movePhone, renameUser } from '../session/index.ts';
import { consumeSmsCode } from '../session/index.ts';
import { USER_AGREEMENT } from './agreement.ts';
import {
  DevelopmentIdentityProvider,
  type FaceCallback,
  type IdentityProvider,
} from './identity-provider.ts';
import * as q from './queries.ts';
import { P } from './texts.ts';

const HOUR_MS = 60 * 60 * 1000;
/** Identity checks one account may run per hour (each may cost money at a real provider). */
const REAL_NAME_MAX_PER_HOUR = 10;
/** Recovery attempts one account may make per hour: guessing an identity must stay impractical. */
const RECOVERY_MAX_PER_HOUR = 5;
const RECOVERY_TTL_MS = 10 * 60 * 1000;
const FACE_TTL_MS = 10 * 60 * 1000;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const newSecret = (bytes: number) => randomBytes(bytes).toString('base64url');
function maskMiddle(value: string, head: number, tail: number): string {
  if (value.length <= head + tail) return value;
  return value.slice(0, head) + '*'.repeat(value.length - head - tail) + value.slice(-tail);
}
/** SPEC §5: first 3 and last 4 of a phone; first 6 and last 4 of an ID number. */
export const maskPhone = (phone: string) => maskMiddle(phone, 3, 4);
export const maskIdNumber = (id: string) => maskMiddle(id, 6, 4);

/** The app's identity provider (deps.perApp), chosen on first use. */
const PROVIDER = definePerAppSlot<Promise<IdentityProvider>>('person.identityProvider');

const SEAL_PURPOSE = 'person/id-number-seal/v1';

/** The ID number sealed for a real provider's face checks: base64(iv | tag | ciphertext), AES-256-GCM. */
async function sealIdNumber(deps: AppDeps, idNumber: string): Promise<string> {
  const key = (await pkiFor(deps)).deriveSecret(SEAL_PURPOSE).subarray(0, 32);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(idNumber, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64');
}

async function unsealIdNumber(deps: AppDeps, sealed: string): Promise<string> {
  const key = (await pkiFor(deps)).deriveSecret(SEAL_PURPOSE).subarray(0, 32);
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** A provider that could not be reached or answered an error: the person is told to try later. */
async function askProvider<T>(deps: AppDeps, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    // Expected: the provider's call failed or could not be reached (only `fn`, the provider call, runs here).
    if (err instanceof AppError) throw err;
    deps.log.error({ err: (err as Error).message }, `identity provider: ${what} failed`);
    throw new AppError(Code.Refused, P.providerUnavailable, { status: 502 });
  }
}

/**
 * The identity provider of an app. Only the development one exists (config IDENTITY_PROVIDER); its
 * callback secret is derived from the master key through the PKI, so it is stable across restarts and
 * instances and never stored.
 */
export function identityProviderFor(deps: AppDeps): Promise<IdentityProvider> {
  return deps.perApp.get(PROVIDER, () => {
    const provider = chooseIdentityProvider(deps);
    // A failed start must not be kept: the next call tries again. The failure reaches whoever awaits it.
    provider.catch(() => deps.perApp.delete(PROVIDER));
    return provider;
  });
}

function chooseIdentityProvider(deps: AppDeps): Promise<IdentityProvider> {
  const real = deps.config.identity.real;
  if (real) {
    // The vendors' SDKs load on first use, not at start-up (server/README.md, memory).
    return real.provider === 'tencent'
      ? import('../../providers/identity/tencent.ts').then((m) => new m.TencentIdentityProvider(real))
      : import('../../providers/identity/aliyun.ts').then((m) => new m.AliyunIdentityProvider(real));
  }
  return pkiFor(deps).then((pki) => {
    deps.log.warn(
      'identity provider: DEVELOPMENT (accepts any well-formed identity, simulates face recognition); ' +
        'not for real people',
    );
    return new DevelopmentIdentityProvider({
      rejectIdNumber: deps.config.identity.devRejectIdNumber,
      callbackSecret: pki.deriveSecret('identity-provider/face-callback/v1'),
      warn: (msg) => deps.log.warn(msg),
    });
  });
}

/** The person's current certificate (good, in its validity period), if any. */
async function currentCert(deps: AppDeps, userId: string): Promise<IssuedCertificate | undefined> {
  const pki = await pkiFor(deps);
  return pki.current({ userType: UserType.Person, accountId: userId });
}

/** login-info's hasCaCert for a person session (server/modules/session/login-info.ts calls this). */
export async function personHasCaCert(deps: AppDeps, userId: string): Promise<boolean> {
  return (await currentCert(deps, userId)) !== undefined;
}

async function personState(deps: AppDeps, userId: string) {
  const [identity, acceptance, cert] = await Promise.all([
    q.findIdentity(deps.db, userId),
    q.findAcceptance(deps.db, userId, USER_AGREEMENT.version),
    currentCert(deps, userId),
  ]);
  return { identity, acceptance, cert };
}

/**
 * checkCurrentLoginUserOpenSign. A person session answers for the person. A company session answers for
 * the company of the session: the caller must be an active member (else 602, decided by the company
 * module), and the company is open when verified and holding a current company certificate.
 */
export async function openSignStatus(deps: AppDeps, actor: Actor): Promise<OpenSignStatus> {
  const provider = await identityProviderFor(deps);
  const { identity, acceptance, cert } = await personState(deps, actor.userId);
  const base = {
    userType: actor.userType,
    agreementVersion: USER_AGREEMENT.version,
    identityProvider: { name: provider.name, isDevelopment: provider.isDevelopment },
    isAgreementAccepted: acceptance !== null,
  };
  if (actor.userType === UserType.Company && actor.companyId) {
    const access = await requireCompanyRole(deps, actor, ['admin', 'operator']);
    const company = await getCompany(deps, access.companyId);
    const pki = await pkiFor(deps);
    const companyCert = await pki.current({ userType: UserType.Company, accountId: access.companyId });
    const isVerified = company?.status === 'verified';
    return {
      ...base,
      isOpen: isVerified && companyCert !== undefined,
      isRealNameDone: isVerified,
      hasCaCert: companyCert !== undefined,
      isPersonAnswer: false,
    };
  }
  return {
    ...base,
    isOpen: identity !== null && acceptance !== null && cert !== undefined,
    isRealNameDone: identity !== null,
    hasCaCert: cert !== undefined,
    isPersonAnswer: true,
  };
}

/**
 * authIdNamePhone: the SMS code proves the caller holds the phone, the provider that name, ID number and
 * phone belong together. Only a keyed hash of the number (the certificate's subject serialNumber) and a
 * masked form are stored; one identity belongs to one account.
 */
export async function authIdNamePhone(
  deps: AppDeps,
  actor: Actor,
  body: { name: string; idNumber: string; phone: string; smsCode: string },
): Promise<OpenSignStatus> {
  const now = deps.clock.now();
  if (await q.findIdentity(deps.db, actor.userId)) throw new AppError(Code.Refused, P.alreadyVerified);
  // The schema checked the date against the machine's clock; the server's clock is the authority.
  const check = checkIdNumber(body.idNumber, now);
  if (!check.ok && check.problem === IdNumberProblem.FutureBirthDate)
    throw new AppError(Code.BadRequest, P.idNumberFuture);
  if ((await hitCounter(deps.db, `realname:${actor.userId}`, HOUR_MS, now)) > REAL_NAME_MAX_PER_HOUR)
    throw new AppError(Code.RateLimited, P.realNameTooMany);
  await consumeSmsCode(deps, body.phone, SmsPurpose.RealName, body.smsCode);
  await verifyAndRecordIdentity(deps, actor.userId, body);
  return openSignStatus(deps, actor);
}

/**
 * The identity check and the record of a real name for a user whose phone is already proven (by a realName
 * code, or by the signing room's login): the provider decides whether name, ID number and phone belong
 * together; only a keyed hash of the number is stored; one identity belongs to one account.
 */
export async function verifyAndRecordIdentity(
  deps: AppDeps,
  userId: string,
  body: { name: string; idNumber: string; phone: string },
): Promise<void> {
  const now = deps.clock.now();
  const provider = await identityProviderFor(deps);
  const verdict = await askProvider(deps, 'three-factor check', () => provider.verifyIdNamePhone(body));
  await recordEvidence(deps.db, {
    kind: 'identity',
    provider: provider.name,
    requestId: verdict.requestId ?? null,
    subjectType: 'user',
    subjectId: userId,
    outcome: verdict.ok ? 'passed' : 'failed',
    detail: verdict.ok ? null : verdict.reason.en,
    at: now,
  });
  if (!verdict.ok) throw new AppError(Code.Refused, verdict.reason);
  const pki = await pkiFor(deps);
  const idHash = pki.subjectIdHash(UserType.Person, body.idNumber);
  const holder = await q.findUserIdByIdHash(deps.db, idHash);
  if (holder && holder !== userId) throw new AppError(Code.Refused, P.identityTaken);
  const isInserted = await q.insertIdentity(deps.db, {
    userId,
    realName: body.name,
    idHash,
    idMasked: maskIdNumber(body.idNumber),
    phoneMasked: maskPhone(body.phone),
    provider: provider.name,
    verifiedAt: now,
    faceVerifiedAt: null,
    providerRequestId: verdict.requestId ?? null,
    idSealed: provider.needsIdNumberForFace ? await sealIdNumber(deps, body.idNumber) : null,
  });
  if (!isInserted) throw new AppError(Code.Refused, P.identityTaken);
  await renameUser(deps, userId, body.name);
  deps.log.info({ userId, provider: provider.name }, 'person: real-name check passed');
}

/** A user's real name, agreement acceptance and current certificate (the signing room's onboarding reads it). */
export async function personOnboardingState(deps: AppDeps, userId: string) {
  const { identity, acceptance, cert } = await personState(deps, userId);
  return {
    realName: identity?.realName ?? null,
    isAgreementAccepted: acceptance !== null,
    hasCertificate: cert !== undefined,
  };
}

export async function getAgreement(deps: AppDeps, actor: Actor | null) {
  const acceptance = actor ? await q.findAcceptance(deps.db, actor.userId, USER_AGREEMENT.version) : null;
  return {
    version: USER_AGREEMENT.version,
    title: { ...USER_AGREEMENT.title },
    text: { ...USER_AGREEMENT.text },
    acceptedAt: acceptance?.acceptedAt.toISOString() ?? null,
  };
}

/** Only the current version can be accepted: the user must have been shown the text in force. */
export async function acceptAgreement(deps: AppDeps, actor: Actor, version: string) {
  return acceptAgreementFor(deps, actor.userId, version);
}

export async function acceptAgreementFor(deps: AppDeps, userId: string, version: string) {
  if (version !== USER_AGREEMENT.version) throw new AppError(Code.Refused, P.agreementOutdated);
  const row = await q.insertAcceptance(deps.db, userId, version, deps.clock.now());
  return { version: row.version, acceptedAt: row.acceptedAt.toISOString() };
}

async function presentCert(deps: AppDeps, c: IssuedCertificate): Promise<PersonCert> {
  const pki = await pkiFor(deps);
  return { ...presentCertSummary(c), issuer: pki.ca.issuing.cert.subject, pem: c.pem };
}

/**
 * createPersonCaCert: only after the real-name check and acceptance of the current agreement, for the
 * caller's own person account. Idempotent: the current certificate when there is one.
 */
export async function createPersonCaCert(deps: AppDeps, actor: Actor): Promise<PersonCert> {
  return issuePersonCertFor(deps, actor.userId);
}

/** createPersonCaCert for a user named by id (the signing room's onboarding, after its own checks). */
export async function issuePersonCertFor(deps: AppDeps, userId: string): Promise<PersonCert> {
  const actor = { userId };
  const { identity, acceptance, cert } = await personState(deps, actor.userId);
  if (cert) return presentCert(deps, cert);
  if (!identity) throw new AppError(Code.Refused, P.needRealName);
  if (!acceptance) throw new AppError(Code.Refused, P.needAgreement);
  const pki = await pkiFor(deps);
  const issued = await pki.issue({
    userType: UserType.Person,
    accountId: actor.userId,
    name: identity.realName,
    idHash: identity.idHash,
  });
  deps.log.info({ userId: actor.userId, serial: issued.serial }, 'person: certificate issued');
  return presentCert(deps, issued);
}

export async function getPersonCaCert(deps: AppDeps, actor: Actor): Promise<PersonCert | null> {
  const cert = await currentCert(deps, actor.userId);
  return cert ? presentCert(deps, cert) : null;
}

export async function personalDetails(deps: AppDeps, actor: Actor) {
  const user = await findUserById(deps.db, actor.userId);
  if (!user) throw new AppError(Code.NotLoggedIn, T.notLoggedIn);
  const { identity, acceptance, cert } = await personState(deps, actor.userId);
  return {
    name: identity?.realName ?? null,
    idNumberMasked: identity?.idMasked ?? null,
    phoneMasked: maskPhone(user.phone),
    verifiedAt: identity?.verifiedAt.toISOString() ?? null,
    faceVerifiedAt: identity?.faceVerifiedAt?.toISOString() ?? null,
    agreementVersion: acceptance?.version ?? null,
    agreementAcceptedAt: acceptance?.acceptedAt.toISOString() ?? null,
    certificate: cert
      ? {
          serial: cert.serial,
          notBefore: cert.notBefore.toISOString(),
          notAfter: cert.notAfter.toISOString(),
          status: cert.status,
        }
      : null,
    verificationRecords: (await evidenceOf(deps.db, 'user', actor.userId))
      .filter((e) => e.kind === 'identity' || e.kind === 'face')
      .map((e) => ({
        kind: e.kind as 'identity' | 'face',
        provider: e.provider,
        requestId: e.requestId,
        outcome: e.outcome,
        at: e.at,
      })),
  };
}

/**
 * recoverAccountVerify. Safe because: the caller is logged in to the account, the name and the keyed
 * hash of the ID number must equal what the real-name check stored (the number itself is never kept),
 * the new phone proves itself by an SMS code, and attempts are limited per account per hour.
 */
export async function recoverVerify(
  deps: AppDeps,
  actor: Actor,
  body: { name: string; idNumber: string; newPhone: string; smsCode: string },
) {
  const now = deps.clock.now();
  if ((await hitCounter(deps.db, `recover:${actor.userId}`, HOUR_MS, now)) > RECOVERY_MAX_PER_HOUR)
    throw new AppError(Code.RateLimited, P.recoveryTooMany);
  const identity = await q.findIdentity(deps.db, actor.userId);
  if (!identity) throw new AppError(Code.Refused, P.needRealName);
  const pki = await pkiFor(deps);
  const isSameIdentity =
    identity.idHash === pki.subjectIdHash(UserType.Person, body.idNumber) && identity.realName === body.name;
  if (!isSameIdentity) {
    deps.log.warn({ userId: actor.userId }, 'person: account recovery with a wrong identity');
    throw new AppError(Code.Refused, P.recoveryMismatch);
  }
  const user = await findUserById(deps.db, actor.userId);
  if (user?.phone === body.newPhone) throw new AppError(Code.Refused, P.recoverySamePhone);
  // The new phone's code first: whether that phone has an account is told only to its proven owner.
  await consumeSmsCode(deps, body.newPhone, SmsPurpose.RecoverAccount, body.smsCode);
  if (await findUserByPhone(deps.db, body.newPhone))
    throw new AppError(Code.PhoneTaken, P.recoveryPhoneTaken);
  const ticket = newSecret(32);
  await q.insertRecovery(deps.db, {
    ticketHash: sha256(ticket),
    userId: actor.userId,
    newPhone: body.newPhone,
    createdAt: now,
    expiresAt: new Date(now.getTime() + RECOVERY_TTL_MS),
  });
  return { ticket, newPhoneMasked: maskPhone(body.newPhone), expiresInSeconds: RECOVERY_TTL_MS / 1000 };
}

/** recoverAccountFinish: the account moves to the new phone; every other session of it ends (3000). */
export async function recoverFinish(deps: AppDeps, session: LiveSession, ticket: string) {
  const now = deps.clock.now();
  const recovery = await q.consumeRecovery(deps.db, session.userId, sha256(ticket), now);
  if (!recovery) throw new AppError(Code.Refused, P.recoveryTicketInvalid);
  if (!(await movePhone(deps, session, recovery.newPhone)))
    throw new AppError(Code.PhoneTaken, P.recoveryPhoneTaken);
  deps.log.info({ userId: session.userId }, 'person: account moved to a new phone');
  return { phoneMasked: maskPhone(recovery.newPhone) };
}

/** The result route the provider sends the browser to, per openFlag (SPEC §2), as an app hash URL. */
function resultRoutes(
  f: { openFlag: string; personCode: string; businessCode: string; deviceType: string; signUrl: string },
  token: string,
) {
  const e = encodeURIComponent;
  const route = (passed: boolean) => {
    const result = passed ? FaceResult.Passed : FaceResult.Failed;
    switch (f.openFlag) {
      case FaceOpenFlag.SigningRoom:
        return `/h5/v1/signingRoomFaceAuthResult/${result}/${e(f.businessCode)}/${e(f.deviceType)}/${token}/${e(f.signUrl)}`;
      case FaceOpenFlag.FacePrint:
        return `/h5/v1/facePrintAuthResult/${result}/${e(f.businessCode)}/${e(f.deviceType)}/${token}`;
      default:
        return `/h5/v1/${passed ? 'result' : 'resultFalse'}/${e(f.openFlag)}/${e(f.personCode)}/${token}`;
    }
  };
  return { passed: `/#${route(true)}`, failed: `/#${route(false)}` };
}

/** startFaceAuth: a face check of the real-name-verified caller, against the stored identity. */
export async function startFace(
  deps: AppDeps,
  actor: Actor,
  body: { openFlag: string; businessCode?: string; deviceType?: string; signUrl?: string },
) {
  return startFaceFor(deps, actor.userId, body);
}

/**
 * A face check of one real-name-verified person (the caller's session, or the signer a signing room proved):
 * the attempt is tied to that user, its openFlag and businessCode; only the provider's callback decides it.
 */
export async function startFaceFor(
  deps: AppDeps,
  userId: string,
  body: { openFlag: string; businessCode?: string; deviceType?: string; signUrl?: string },
) {
  const actor = { userId };
  const now = deps.clock.now();
  const identity = await q.findIdentity(deps.db, actor.userId);
  if (!identity) throw new AppError(Code.Refused, P.needRealName);
  const personCode = newSecret(12);
  const token = newSecret(24);
  const fields = {
    openFlag: body.openFlag,
    personCode,
    businessCode: body.businessCode || '-',
    deviceType: body.deviceType ?? 'h5',
    signUrl: body.signUrl ?? '/h5/v1/signing_room',
  };
  await q.insertFaceSession(deps.db, {
    personCode,
    tokenHash: sha256(token),
    userId: actor.userId,
    openFlag: body.openFlag,
    businessCode: body.businessCode ?? null,
    deviceType: fields.deviceType,
    signUrl: body.openFlag === FaceOpenFlag.SigningRoom ? fields.signUrl : null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + FACE_TTL_MS),
  });
  const provider = await identityProviderFor(deps);
  const idNumber =
    provider.needsIdNumberForFace && identity.idSealed ? await unsealIdNumber(deps, identity.idSealed) : null;
  if (provider.needsIdNumberForFace && !idNumber) throw new AppError(Code.Refused, P.faceNeedsRecheck);
  const started = await askProvider(deps, 'face check start', () =>
    provider.startFace({
      personCode,
      openFlag: body.openFlag,
      name: identity.realName,
      idHash: identity.idHash,
      idNumber,
      returnUrl: resultRoutes(fields, token),
      providerReturnUrl: `${deps.config.publicUrl}${FACE_RETURN_PATH}/${personCode}?t=${token}`,
    }),
  );
  if (started.providerRef)
    await q.setFaceProviderRef(deps.db, personCode, {
      providerRef: started.providerRef,
      providerRequestId: started.requestId ?? null,
    });
  return { url: started.url, personCode, expiresInSeconds: FACE_TTL_MS / 1000 };
}

/**
 * The provider's callback: the only way an attempt is decided. Refuses a bad signature, an openFlag that
 * differs from the attempt's, and a second decision (replay).
 */
export async function faceCallback(deps: AppDeps, body: unknown): Promise<FaceCallback> {
  const provider = await identityProviderFor(deps);
  const claim = provider.checkFace(body);
  if (!claim) throw new AppError(Code.Refused, P.faceCallbackRejected, { status: 403 });
  const face = await q.findFaceByPersonCode(deps.db, claim.personCode);
  if (!face || face.openFlag !== claim.openFlag)
    throw new AppError(Code.Refused, P.faceCallbackRejected, { status: 403 });
  const now = deps.clock.now();
  const status = claim.result === 'passed' ? FaceStatus.Passed : FaceStatus.Failed;
  if (!(await q.decideFace(deps.db, claim.personCode, status, now)))
    throw new AppError(Code.Refused, P.faceCallbackRejected, { status: 409 });
  if (status === FaceStatus.Passed && face.openFlag === FaceOpenFlag.OpenAccount)
    await q.setFaceVerified(deps.db, face.userId, now);
  deps.log.info({ userId: face.userId, openFlag: face.openFlag, status }, 'person: face recognition decided');
  return claim;
}

/** getFaceAuthResult: what the server decided, found by the result route's token. */
export async function faceResult(deps: AppDeps, token: string) {
  let face = await q.findFaceByTokenHash(deps.db, sha256(token));
  if (!face) throw new AppError(Code.NotFound, P.faceSessionUnknown);
  if (face.status === FaceStatus.Pending && face.providerRef) {
    await settleFaceAtProvider(deps, face);
    face = (await q.findFaceByTokenHash(deps.db, sha256(token)))!;
  }
  const isExpired =
    face.status === FaceStatus.Pending && face.expiresAt.getTime() <= deps.clock.now().getTime();
  const result = isExpired ? FaceResult.Expired : face.status;
  return {
    result,
    openFlag: face.openFlag,
    businessCode: face.businessCode,
    signUrl: result === FaceResult.Passed ? face.signUrl : null,
  };
}

/** Where a real provider sends the browser back after a face attempt (GET, then a redirect). */
export const FACE_RETURN_PATH = '/v1/person/face/return';

/**
 * A pending attempt at a real provider: the server asks the provider (with the reference it kept, not
 * anything the browser brought) and decides the attempt. Answers the attempt's status afterwards.
 */
async function settleFaceAtProvider(
  deps: AppDeps,
  face: NonNullable<Awaited<ReturnType<typeof q.findFaceByPersonCode>>>,
): Promise<FaceStatus> {
  if (face.status !== FaceStatus.Pending || !face.providerRef) return face.status;
  if (face.expiresAt.getTime() <= deps.clock.now().getTime()) return face.status;
  const provider = await identityProviderFor(deps);
  if (!provider.queryFace) return face.status;
  const ref = { providerRef: face.providerRef, personCode: face.personCode };
  const answer = await askProvider(deps, 'face result query', () => provider.queryFace!(ref));
  if (answer.result === 'pending') return FaceStatus.Pending;
  const now = deps.clock.now();
  const status = answer.result === 'passed' ? FaceStatus.Passed : FaceStatus.Failed;
  if (await q.decideFace(deps.db, face.personCode, status, now)) {
    if (status === FaceStatus.Passed && face.openFlag === FaceOpenFlag.OpenAccount)
      await q.setFaceVerified(deps.db, face.userId, now);
    await recordEvidence(deps.db, {
      kind: 'face',
      provider: provider.name,
      requestId: answer.requestId || face.providerRequestId,
      subjectType: 'user',
      subjectId: face.userId,
      outcome: status,
      detail: `${face.openFlag} ${face.businessCode ?? ''} ${answer.detail ?? ''}`.trim(),
      at: now,
    });
    deps.log.info(
      { userId: face.userId, openFlag: face.openFlag, status },
      'person: face recognition decided',
    );
  }
  return (await q.findFaceByPersonCode(deps.db, face.personCode))?.status ?? status;
}

/**
 * The browser is back from the provider: `t` (the attempt's token, only its hash is stored) ties it to the
 * attempt; the result comes from the provider's server. Answers the face result route to send it to.
 */
export async function faceReturn(deps: AppDeps, personCode: string, token: string): Promise<string | null> {
  const face = await q.findFaceByPersonCode(deps.db, personCode);
  if (!face || face.tokenHash !== sha256(token)) return null;
  const status = await settleFaceAtProvider(deps, face);
  const routes = resultRoutes(
    {
      openFlag: face.openFlag,
      personCode: face.personCode,
      businessCode: face.businessCode || '-',
      deviceType: face.deviceType ?? 'h5',
      signUrl: face.signUrl ?? '/h5/v1/signing_room',
    },
    token,
  );
  return status === FaceStatus.Passed ? routes.passed : routes.failed;
}

/** The attempt behind the development provider's page (it needs the openFlag to sign its callback). */
export async function pendingFace(deps: AppDeps, personCode: string) {
  const face = await q.findFaceByPersonCode(deps.db, personCode);
  if (!face || face.status !== FaceStatus.Pending || face.expiresAt.getTime() <= deps.clock.now().getTime())
    return null;
  return face;
}

/** The person's verified real name (from the real-name check), or null before it. */
export async function verifiedNameOf(deps: AppDeps, userId: string): Promise<string | null> {
  const identity = await q.findIdentity(deps.db, userId);
  return identity?.realName.trim() || null;
}

/**
 * Spends the person's passed face check of this business (e.g. a party's signing), made within the last
 * `withinMs`: true once, when there is one to spend (a check proves one intent only).
 */
export function spendFaceCheck(
  deps: AppDeps,
  c: { userId: string; openFlag: string; businessCode: string; withinMs: number },
): Promise<boolean> {
  const now = deps.clock.now();
  return q.spendFreshFaceCheck(deps.db, {
    userId: c.userId,
    openFlag: c.openFlag,
    businessCode: c.businessCode,
    since: new Date(now.getTime() - c.withinMs),
    now,
  });
}
