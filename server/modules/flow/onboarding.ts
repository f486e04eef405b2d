import type { Actor } from '../../lib/actor.ts';
import type { FastifyReply } from 'fastify';
import type { RoomOnboarding } from '#contract/calls/flow.ts';
import { appliesCompanySeal, fitsCompanySeal } from '#contract/rules/seal-needs.ts';
import { Code } from '#contract/codes.ts';
import type { CompanySealDTO } from '#contract/calls/seal.ts';
import { SealType, UserType } from '#contract/enums.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { hitCounter } from '../../db/rate-counter.ts';
import { companyByName, getCompany, pendingApplyNamed } from '../company/index.ts';
import { applyCompany, confirmMicroPayment, sendMicroPayment } from '../company/index.ts';
import { USER_AGREEMENT } from '../person/index.ts';
import { saveCompanySeal, sealsUsableBy } from '../seal/index.ts';
import {
  acceptAgreementFor,
  identityProviderFor,
  issuePersonCertFor,
  personOnboardingState,
  verifyAndRecordIdentity,
} from '../person/index.ts';
import { createSignerAccount, findUserById, findUserByPhone } from '../session/index.ts';
import { pkiFor } from '../pki/index.ts';
import { startSession } from '../session/index.ts';
import { type Party, appliesOf, maskPhone } from './model.ts';
import { type Room, isPhoneProven, provePhone, roomState, signRefusal } from './room.ts';
import * as q from './queries.ts';
import { F } from './texts.ts';

const HOUR_MS = 60 * 60 * 1000;
/** Identity checks one phone may run per hour from signing rooms (each may cost money at a real provider). */
const ROOM_REAL_NAME_MAX_PER_HOUR = 10;

/** Names compare without spaces (full-width included) and without a middle-dot variant difference. */
const nameKey = (s: string) =>
  s
    .normalize('NFKC')
    .replace(/\s+/g, '')
    .replace(/[·•・]/g, '·');

/** What the room's signer still needs before signing. */
export async function onboardingOf(deps: AppDeps, room: Room, party: Party): Promise<RoomOnboarding> {
  const provider = await identityProviderFor(deps);
  const state = room.userId ? await personOnboardingState(deps, room.userId) : null;
  const isRealNameDone = state?.realName != null;
  const hasCertificate = state?.hasCertificate ?? false;
  let step: RoomOnboarding['step'] = 'none';
  if (party.kind === 'person' && !hasCertificate)
    step = isRealNameDone ? 'userAgreement' : 'nameAuthentication';
  let company: RoomOnboarding['company'] = null;
  if (party.kind === 'company') {
    const isOpen = party.companyId !== null;
    const apply = !isOpen && room.userId ? await pendingApplyFor(deps, room.userId, party) : undefined;
    company = {
      name: party.companyName ?? '',
      isOpen,
      isPaymentSent: apply?.isPaymentSent ?? false,
      attemptsLeft: apply?.attemptsLeft ?? null,
      creditCode: apply?.creditCode ?? null,
      provider: apply?.provider ?? null,
    };
    if (!isOpen) step = isRealNameDone ? 'openCompany' : 'nameAuthentication';
  }
  // Onboarding writes to the phone's account: only once the phone is proven in this room (issue 23).
  const isProven = isPhoneProven(room);
  if (step !== 'none' && !isProven) step = 'provePhone';
  return {
    step,
    isPhoneProven: isProven,
    hasAccount: room.userId !== null,
    isRealNameDone,
    isAgreementAccepted: state?.isAgreementAccepted ?? false,
    hasCertificate,
    realName: isProven ? (state?.realName ?? null) : null,
    expectedName: party.name,
    phoneMasked: maskPhone(room.phone),
    agreementVersion: USER_AGREEMENT.version,
    identityProvider: { name: provider.name, isDevelopment: provider.isDevelopment },
    company,
  };
}

/**
 * The room's party, open for signing: only then does onboarding make sense; and only in a room whose phone
 * is proven (an embedded room first proves it with a code, roomProvePhone).
 */
async function openParty(deps: AppDeps, room: Room): Promise<Party> {
  if (!isPhoneProven(room)) throw new AppError(Code.Refused, F.provePhoneFirst);
  const { flow, party } = await roomState(deps, room);
  const refusal = signRefusal(flow, party, deps.clock.now());
  if (refusal) throw refusal;
  if (room.phoneProof === 'apiKey')
    deps.log.info(
      { partyId: party.id, apiKeyId: room.apiKeyId },
      'room onboarding: identity asserted by API key',
    );
  return party;
}

/** The same, for a person party (the certificate agreement is a person's). */
async function openPersonParty(deps: AppDeps, room: Room): Promise<Party> {
  const party = await openParty(deps, room);
  if (party.kind !== 'person') throw new AppError(Code.Refused, F.onboardingPersonOnly);
  return party;
}

/** The account of the room's phone, made now when there is none (a normal person account, no password yet). */
async function ensureAccount(deps: AppDeps, room: Room): Promise<{ userId: string; isNew: boolean }> {
  if (room.userId) return { userId: room.userId, isNew: false };
  return createSignerAccount(deps, room.phone);
}

/**
 * roomRealName. Safe because: the room token names one party and its phone (proven by the room login's SMS
 * code), the account made or used is the one of that phone, the identity check runs on that phone, and a name
 * other than the one the launcher typed is refused and shown to the launcher.
 */
export async function roomRealName(
  deps: AppDeps,
  room: Room,
  body: { name: string; idNumber: string },
): Promise<RoomOnboarding> {
  const party = await openParty(deps, room);
  const now = deps.clock.now();
  await q.markPartyMoment(deps.db, party.id, 'onboardingAt', now);
  if ((await hitCounter(deps.db, `room-realname:${room.phone}`, HOUR_MS, now)) > ROOM_REAL_NAME_MAX_PER_HOUR)
    throw new AppError(Code.RateLimited, F.onboardingTooMany);
  if (party.name && nameKey(party.name) !== nameKey(body.name)) {
    const problem = F.nameMismatch(body.name, party.name);
    await q.setOnboardingProblem(deps.db, party.id, problem);
    deps.log.info(
      { partyId: party.id },
      'room onboarding: confirmed name differs from the launcher-typed name',
    );
    throw new AppError(Code.Refused, problem);
  }
  if (room.userId && (await personOnboardingState(deps, room.userId)).realName !== null)
    throw new AppError(Code.Refused, F.alreadyRealName);
  const { userId, isNew } = await ensureAccount(deps, room);
  await q.setRoomUser(deps.db, room.tokenHash, userId, isNew);
  const mine: Room = { ...room, userId, madeAccount: room.madeAccount || isNew };
  await verifyAndRecordIdentity(deps, userId, {
    name: body.name,
    idNumber: body.idNumber,
    phone: room.phone,
  });
  await q.setOnboardingProblem(deps.db, party.id, null);
  return onboardingOf(deps, mine, party);
}

/** roomProvePhone: the room's code proves its phone here (issue 23); answers what onboarding needs next. */
export async function roomProvePhone(
  deps: AppDeps,
  room: Room,
  smsCode: string,
  ip: string,
): Promise<RoomOnboarding> {
  const proven = await provePhone(deps, room, smsCode, ip);
  const { party } = await roomState(deps, proven);
  return onboardingOf(deps, proven, party);
}

// ---------------------------------------------------------------------------------------------------------
// A company party whose company has not opened e-signature: its handler opens it from the room.

/** The room's handler acting as a person (the company module's applicant), or for the company it opened. */
const callerAs = (room: Room, userId: string, companyId: string | null): Actor => ({
  userId,
  userType: companyId ? UserType.Company : UserType.Person,
  companyId,
  via: { kind: 'room', tokenHash: room.tokenHash },
});

/** The handler's pending application for the party's company (by its exact name), if any. */
async function pendingApplyFor(deps: AppDeps, userId: string, party: Party) {
  return pendingApplyNamed(deps, userId, party.companyName);
}

/** The room's company party, not opened yet, and its handler with a verified real name. */
async function unopenedCompanyParty(deps: AppDeps, room: Room) {
  const party = await openParty(deps, room);
  if (party.kind !== 'company') throw new AppError(Code.Refused, F.onboardingCompanyOnly);
  if (party.companyId) throw new AppError(Code.Refused, F.companyAlreadyOpen);
  const state = room.userId ? await personOnboardingState(deps, room.userId) : null;
  if (!room.userId || !state?.realName) throw new AppError(Code.Refused, F.needRealNameFirst);
  return { party, userId: room.userId, realName: state.realName };
}

/**
 * roomOpenCompany. The legal-person check: the handler applies as the company's legal representative, so the
 * name verified by the identity check must be the legal representative's; the company's name is the one the
 * launcher gave (fixed); the business register (provider) checks name, credit code and representative.
 */
export async function roomOpenCompany(
  deps: AppDeps,
  room: Room,
  body: { creditCode: string; legalRepName: string },
): Promise<RoomOnboarding> {
  const { party, userId, realName } = await unopenedCompanyParty(deps, room);
  if (nameKey(realName) !== nameKey(body.legalRepName))
    throw new AppError(Code.Refused, F.notLegalRep(realName, body.legalRepName));
  const caller = callerAs(room, userId, null);
  const creditCode = body.creditCode.trim().toUpperCase();
  let apply = await pendingApplyFor(deps, userId, party);
  if (apply && apply.creditCode !== creditCode) apply = undefined;
  apply ??= await applyCompany(deps, caller, {
    companyName: party.companyName ?? '',
    creditCode,
    legalRepName: body.legalRepName,
    applicantRole: 'legal_rep',
  });
  await sendMicroPayment(deps, caller, apply.companyId);
  return onboardingOf(deps, room, party);
}

/**
 * roomConfirmCompany: the amount confirms the opening (the company module verifies it, issues the company
 * certificate and makes the handler administrator); then the seals the party applies are issued and the party
 * becomes this company's. An account the room made is logged in in this browser, as after the person steps.
 */
export async function roomConfirmCompany(
  deps: AppDeps,
  room: Room,
  amount: string,
  http: { reply: FastifyReply; session: Actor | null },
): Promise<RoomOnboarding> {
  const { party, userId } = await unopenedCompanyParty(deps, room);
  const apply = await pendingApplyFor(deps, userId, party);
  if (!apply) throw new AppError(Code.Refused, F.companyNotApplied);
  const done = await confirmMicroPayment(deps, callerAs(room, userId, null), apply.companyId, amount);
  const companyId = done.companyId;
  const admin = callerAs(room, userId, companyId);
  const applies = appliesOf(party);
  // A party that lets the signer choose the type gets the company's official seal (its everyday seal).
  if (appliesCompanySeal(applies))
    await saveCompanySeal(deps, admin, {
      userType: 1,
      sealType: (applies.companySealType ?? SealType.Official) as CompanySealDTO['sealType'],
      generateAntiCounterfeitNo: true,
    });
  if (applies.legalPersonSeal)
    await saveCompanySeal(deps, admin, {
      userType: 1,
      sealType: SealType.LegalPerson,
      legalPersonName: apply.legalRepName,
      generateAntiCounterfeitNo: true,
    });
  await q.setPartyCompany(deps.db, party.id, companyId);
  deps.log.info({ partyId: party.id, companyId }, 'room onboarding: company opened from the signing room');
  if (mayLogIn(room, http.session))
    await startSession(deps, http.reply, { userId, userType: UserType.Person, companyId: null });
  const { party: fresh } = await roomState(deps, room);
  return onboardingOf(deps, room, fresh);
}

/**
 * Whether onboarding logs this browser in to the account the room made: only a link room (its login's code
 * proved the phone), never an embedded room (issue 23), and not over a session the browser already has.
 */
const mayLogIn = (room: Room, session: Actor | null) =>
  room.via === 'link' && room.phoneProof === 'sms' && room.madeAccount && !session;

/**
 * roomAcceptAgreement: the agreement in force accepted, the certificate issued (the person module's rules:
 * real name first). An account a link room made has no password, so this browser is logged in to it (unless
 * it already has a session), as a login would; an embedded room never logs a browser in.
 */
export async function roomAcceptAgreement(
  deps: AppDeps,
  room: Room,
  version: string,
  http: { reply: FastifyReply; session: Actor | null },
): Promise<RoomOnboarding> {
  const party = await openPersonParty(deps, room);
  if (!room.userId || (await personOnboardingState(deps, room.userId)).realName === null)
    throw new AppError(Code.Refused, F.needRealNameFirst);
  await acceptAgreementFor(deps, room.userId, version);
  const cert = await issuePersonCertFor(deps, room.userId);
  deps.log.info({ partyId: party.id, serial: cert.serial }, 'room onboarding: certificate issued');
  if (mayLogIn(room, http.session))
    await startSession(deps, http.reply, { userId: room.userId, userType: UserType.Person, companyId: null });
  return onboardingOf(deps, room, party);
}

/** 300 readiness look-ups per account per hour: enough for launching, too few to sweep phone numbers. */
const READINESS_MAX_PER_HOUR = 300;

/**
 * getSignerReadiness: what each signer of a launch will meet. For a logged-in launcher only, counted per
 * account; it tells no more than the signer pickers (whether a full phone has an account) plus the real-name,
 * certificate and company-opened flags, never a name or an ID.
 */
export async function signerReadiness(
  deps: AppDeps,
  session: Actor,
  signers: {
    phone?: string;
    userId?: string;
    companyId?: string;
    companyName?: string;
    companySealType?: number | null;
    anyCompanySeal?: boolean;
    legalPersonSeal?: boolean;
  }[],
) {
  const now = deps.clock.now();
  const hits = await hitCounter(deps.db, `readiness:${session.userId}`, HOUR_MS, now);
  if (hits + signers.length - 1 > READINESS_MAX_PER_HOUR)
    throw new AppError(Code.RateLimited, F.readinessTooMany);
  for (let i = 1; i < signers.length; i++)
    await hitCounter(deps.db, `readiness:${session.userId}`, HOUR_MS, now);
  const pki = await pkiFor(deps);
  const out = [];
  for (const s of signers) {
    const user = s.userId
      ? await findUserById(deps.db, s.userId)
      : s.phone
        ? await findUserByPhone(deps.db, s.phone)
        : null;
    const state = user ? await personOnboardingState(deps, user.id) : null;
    let isCompanyOpen: boolean | null = null;
    let seals: { sealTypes?: number[]; hasNeededSeal?: boolean } = {};
    if (s.companyId || s.companyName) {
      const c = s.companyId ? await getCompany(deps, s.companyId) : await companyByName(deps, s.companyName!);
      isCompanyOpen =
        c?.status === 'verified' &&
        (await pki.current({ userType: UserType.Company, accountId: c.id })) !== undefined;
      if (c && isCompanyOpen) seals = await signerSeals(deps, user?.id ?? null, c.id, s);
    }
    out.push({
      hasAccount: user !== null,
      isRealNameDone: state?.realName != null,
      hasCertificate: state?.hasCertificate ?? false,
      isCompanyOpen,
      ...seals,
    });
  }
  return { signers: out };
}

/**
 * The company seal types a signer may use now in an opened company (what the signing room will offer them:
 * the administrator every enabled seal, an operator those authorised to them), and, when the launcher said
 * what the party applies, whether they include every seal it needs.
 */
async function signerSeals(
  deps: AppDeps,
  userId: string | null,
  companyId: string,
  applies: { companySealType?: number | null; anyCompanySeal?: boolean; legalPersonSeal?: boolean },
): Promise<{ sealTypes: number[]; hasNeededSeal?: boolean }> {
  const usable = userId ? await sealsUsableBy(deps, { userId, companyId, personal: false }) : [];
  const sealTypes = [...new Set(usable.map((x) => x.sealType).filter((t): t is number => t !== null))].sort(
    (a, b) => a - b,
  );
  const isSaid =
    applies.companySealType !== undefined ||
    applies.anyCompanySeal !== undefined ||
    applies.legalPersonSeal !== undefined;
  if (!isSaid) return { sealTypes };
  const needs = { companySealType: applies.companySealType ?? null, anyCompanySeal: applies.anyCompanySeal };
  const hasNeededSeal =
    (!appliesCompanySeal(needs) || sealTypes.some((t) => fitsCompanySeal(needs, t))) &&
    (!applies.legalPersonSeal || sealTypes.includes(SealType.LegalPerson));
  return { sealTypes, hasNeededSeal };
}
