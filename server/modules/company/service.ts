import type { Actor } from '../../lib/actor.ts';
import type { LiveSession } from '../session/index.ts';
import { createHash, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type {
  CompanyApply,
  Member,
  zCompanyCert,
  zMyCompany,
  zSwitchableAccount,
} from '#contract/calls/company.ts';
import { MICRO_PAYMENT_MAX_ATTEMPTS } from '#contract/calls/company.ts';
import type { LoginInfo } from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { UserType } from '#contract/enums.ts';
import { type ApplicantRole, CompanyStatus, MemberStatus } from '../../db/schema/company.ts';
import type { AppDeps } from '../../deps.ts';
import { hitSlidingCounter } from '../../db/rate-counter.ts';
import { AppError, noPermission } from '../../http/app-error.ts';
import { T } from '../../http/texts.ts';
import { pkiFor, presentCertSummary } from '../pki/index.ts';
import { computeLoginInfo, findUsersByPhoneOrName, switchSessionIdentity } from '../session/index.ts';
import { type CompanyAccess, activeCompaniesOf, requireCompanyRole } from './membership.ts';
import { pickerKeyword } from './picker-keyword.ts';
import { withRolesAndLegalRep } from './roles.ts';
import { maskPhone } from './present.ts';
import * as q from './queries.ts';
import { C } from './texts.ts';
import { randomAmountFen, verificationProviderFor } from './verification-provider.ts';
import { recordEvidence } from '../../providers/evidence.ts';

const ADMIN = ['admin'] as const;
const ANY_MEMBER = ['admin', 'operator'] as const;

/** A list's optional keyword: undefined (no filter) when empty, else what it may match (picker-keyword.ts). */
const keywordMatch = (keyword: string | undefined) => (keyword?.trim() ? pickerKeyword(keyword) : undefined);

// The amount is one of 99 values, so the hash hides nothing from a database reader; it keeps the amount
// out of logs and dumps, and the 3-attempt limit is what stops guessing.
const amountHash = (companyId: string, fen: number) =>
  createHash('sha256').update(`${companyId}:${fen}`).digest('hex');

function presentApply(deps: AppDeps, c: q.CompanyRow): CompanyApply {
  const provider = verificationProviderFor(deps);
  return {
    companyId: c.id,
    companyName: c.name,
    creditCode: c.creditCode,
    legalRepName: c.legalRepName,
    applicantRole: c.applicantRole,
    status: c.status,
    hasPowerOfAttorney: c.poaBlobKey !== null,
    powerOfAttorneyType: c.poaMime,
    isPaymentSent: c.paymentAmountHash !== null,
    attemptsLeft: c.paymentAmountHash ? Math.max(0, MICRO_PAYMENT_MAX_ATTEMPTS - c.paymentAttempts) : 0,
    provider: provider.name,
    verifiedAt: c.verifiedAt?.toISOString() ?? null,
  };
}

const presentMember = (m: q.MemberRow): Member => ({
  memberId: m.memberId,
  userId: m.userId,
  name: m.name,
  phone: maskPhone(m.phone),
  role: m.role,
  status: m.status,
  createdAt: m.createdAt.toISOString(),
  updatedAt: m.updatedAt.toISOString(),
});

// ---------- opening ----------

export async function applyCompany(
  deps: AppDeps,
  actor: Actor,
  input: { companyName: string; creditCode: string; legalRepName: string; applicantRole: ApplicantRole },
): Promise<CompanyApply> {
  if (await q.isCreditCodeVerified(deps.db, input.creditCode))
    throw new AppError(Code.Refused, C.creditCodeTaken);
  const provider = verificationProviderFor(deps);
  let verdict: Awaited<ReturnType<typeof provider.checkRegistration>>;
  try {
    verdict = await provider.checkRegistration({ id: '', name: input.companyName, ...input });
  } catch (err) {
    // Expected: the register check's provider failed or could not be reached (its call only): told to retry.
    deps.log.error({ err: (err as Error).message }, 'company register check failed');
    throw new AppError(Code.Refused, C.registerCheckUnavailable, { status: 502 });
  }
  const evidence = {
    kind: 'company' as const,
    provider: provider.name,
    requestId: verdict.requestId ?? null,
    outcome: verdict.problem ? 'mismatch' : 'match',
    detail: `${input.companyName} ${input.creditCode} ${input.legalRepName}`,
    at: deps.clock.now(),
  };
  if (verdict.problem) {
    // No company row exists for a refused application: the evidence names the applicant.
    await recordEvidence(deps.db, { ...evidence, subjectType: 'user', subjectId: actor.userId });
    throw new AppError(Code.Refused, verdict.problem);
  }
  const row = await q.insertCompany(deps.db, {
    name: input.companyName,
    creditCode: input.creditCode,
    legalRepName: input.legalRepName,
    applicantUserId: actor.userId,
    applicantRole: input.applicantRole,
    now: deps.clock.now(),
  });
  await recordEvidence(deps.db, { ...evidence, subjectType: 'company', subjectId: row.id });
  return presentApply(deps, row);
}

/** The caller's own application (scoped by applicant): another user's id finds nothing. */
async function ownApply(deps: AppDeps, actor: Actor, companyId: string): Promise<q.CompanyRow> {
  const row = await q.findApplyOf(deps.db, actor.userId, companyId);
  if (!row) throw new AppError(Code.NotFound, C.applyNotFound);
  return row;
}

async function ownPendingApply(deps: AppDeps, actor: Actor, companyId: string) {
  const row = await ownApply(deps, actor, companyId);
  if (row.status !== CompanyStatus.Pending) throw new AppError(Code.Refused, C.applyNotPending);
  return row;
}

/** The application view of a company the caller was already allowed to act on. */
export async function applyView(deps: AppDeps, companyId: string): Promise<CompanyApply> {
  return presentApply(deps, (await q.findCompany(deps.db, companyId))!);
}

/** The user's pending application for a company of exactly this name, as the application screens show it. */
export async function pendingApplyNamed(deps: AppDeps, userId: string, name: string | null) {
  const row = await q.findApplyOf(deps.db, userId);
  return row && row.name === name ? applyView(deps, row.id) : undefined;
}

export async function getApply(deps: AppDeps, actor: Actor, companyId?: string) {
  const row = await q.findApplyOf(deps.db, actor.userId, companyId);
  return row ? presentApply(deps, row) : null;
}

export async function sendMicroPayment(deps: AppDeps, actor: Actor, companyId: string) {
  const row = await ownPendingApply(deps, actor, companyId);
  if (row.applicantRole === 'agent' && !row.poaBlobKey) throw new AppError(Code.Refused, C.letterRequired);
  if (await q.isCreditCodeVerified(deps.db, row.creditCode))
    throw new AppError(Code.Refused, C.creditCodeTaken);
  const fen = randomAmountFen();
  await verificationProviderFor(deps).sendMicroPayment(
    { id: row.id, name: row.name, creditCode: row.creditCode, legalRepName: row.legalRepName },
    fen,
  );
  await q.setPayment(deps.db, row.id, amountHash(row.id, fen), deps.clock.now());
  return presentApply(deps, (await q.findCompany(deps.db, row.id))!);
}

/** "0.37", ".37", "0.4" -> fen; anything else -> null. */
function parseYuanToFen(text: string): number | null {
  const m = /^(\d{0,3})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m || (m[1] === '' && m[2] === undefined)) return null;
  return Number(m[1] || '0') * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

export async function confirmMicroPayment(
  deps: AppDeps,
  actor: Actor,
  companyId: string,
  amount: string,
): Promise<CompanyApply> {
  const row = await ownPendingApply(deps, actor, companyId);
  if (!row.paymentAmountHash) throw new AppError(Code.Refused, C.paymentNotSent);
  const fen = parseYuanToFen(amount);
  if (fen === null || amountHash(row.id, fen) !== row.paymentAmountHash) {
    const used = await q.countWrongAmount(deps.db, row.id, MICRO_PAYMENT_MAX_ATTEMPTS);
    if (used >= MICRO_PAYMENT_MAX_ATTEMPTS) throw new AppError(Code.Refused, C.amountWrongRestart);
    throw new AppError(Code.Refused, C.amountWrong(MICRO_PAYMENT_MAX_ATTEMPTS - used));
  }
  if (!(await q.markVerified(deps.db, row, deps.clock.now())))
    throw new AppError(Code.Refused, C.creditCodeTaken);
  await ensureCompanyCert(deps, row.id);
  return presentApply(deps, (await q.findCompany(deps.db, row.id))!);
}

/** Issues the company certificate when the verified company has none (also repairs a failed first issue). */
async function ensureCompanyCert(deps: AppDeps, companyId: string) {
  const company = await q.findCompany(deps.db, companyId);
  if (!company || company.status !== CompanyStatus.Verified) return undefined;
  const pki = await pkiFor(deps);
  const holder = { userType: UserType.Company, accountId: company.id } as const;
  return (
    (await pki.current(holder)) ??
    (await pki.issue({
      ...holder,
      name: company.name,
      organisation: company.name,
      idNumber: company.creditCode,
    }))
  );
}

export async function getCompanyCaCert(
  deps: AppDeps,
  actor: Actor,
): Promise<z.infer<typeof zCompanyCert> | null> {
  const access = await requireCompanyRole(deps, actor, ANY_MEMBER);
  const cert = await ensureCompanyCert(deps, access.companyId);
  if (!cert) return null;
  return { ...presentCertSummary(cert), pem: cert.pem };
}

export async function getAccountInfo(deps: AppDeps, actor: Actor) {
  const access = await requireCompanyRole(deps, actor, ANY_MEMBER);
  const company = (await q.findCompany(deps.db, access.companyId))!;
  const counts = await q.countMembers(deps.db, company.id);
  const admin = (
    await q.listMembers(deps.db, company.id, { activeOnly: true, pageNum: 1, pageSize: 100 })
  ).list.find((m) => m.role === 'admin');
  const cert = await (await pkiFor(deps)).current({ userType: UserType.Company, accountId: company.id });
  return {
    companyId: company.id,
    companyName: company.name,
    creditCode: company.creditCode,
    legalRepName: company.legalRepName,
    applicantRole: company.applicantRole,
    hasPowerOfAttorney: company.poaBlobKey !== null,
    powerOfAttorneyType: company.poaMime,
    verifiedAt: company.verifiedAt?.toISOString() ?? null,
    role: access.role,
    adminName: admin ? (admin.name ?? maskPhone(admin.phone)) : null,
    activeMembers: counts.active,
    // Pending requests are the administrator's business only.
    pendingRequests: access.role === 'admin' ? counts.pending : 0,
    certificate: cert ? presentCertSummary(cert) : null,
  };
}

// ---------- power-of-attorney letter ----------

/**
 * Whose letter may the caller replace: the applicant's own pending application, or (after verification)
 * the company the session acts for, by its administrator only (/mobile/adminPowerAuth).
 */
export async function letterTargetForWrite(deps: AppDeps, actor: Actor, companyId: string) {
  const own = await q.findApplyOf(deps.db, actor.userId, companyId);
  if (own && own.status === CompanyStatus.Pending) return own;
  if (actor.companyId !== companyId) {
    if (own) throw new AppError(Code.Refused, C.applyNotPending);
    throw new AppError(Code.NotFound, C.applyNotFound);
  }
  await requireCompanyRole(deps, actor, ADMIN);
  return (await q.findCompany(deps.db, companyId))!;
}

export async function storeLetter(deps: AppDeps, companyId: string, bytes: Uint8Array, mime: string) {
  const key = await deps.storage.put(bytes);
  await q.setPowerOfAttorney(deps.db, companyId, key, mime);
}

/** Reading the letter: its applicant, or an active member of the company the session acts for. */
export async function readLetter(deps: AppDeps, actor: Actor, companyId: string) {
  let row = await q.findApplyOf(deps.db, actor.userId, companyId);
  if (!row) {
    if (actor.companyId !== companyId) throw new AppError(Code.NotFound, T.notFound);
    await requireCompanyRole(deps, actor, ANY_MEMBER);
    row = await q.findCompany(deps.db, companyId);
  }
  if (!row?.poaBlobKey || !row.poaMime) throw new AppError(Code.NotFound, T.notFound);
  const bytes = await deps.storage.get(row.poaBlobKey);
  if (!bytes) throw new AppError(Code.NotFound, T.notFound);
  return { bytes, mime: row.poaMime };
}

// ---------- joining ----------

export async function searchCompanies(deps: AppDeps, keyword: string) {
  const code = keyword.replace(/\s+/g, '').toUpperCase();
  return q.searchVerifiedCompanies(deps.db, keyword, code.length === 18 ? code : null);
}

const presentMine = (m: Awaited<ReturnType<typeof q.membershipsOf>>[number]): z.infer<typeof zMyCompany> => ({
  memberId: m.memberId,
  companyId: m.companyId,
  companyName: m.companyName,
  role: m.role,
  status: m.status,
  updatedAt: m.updatedAt.toISOString(),
});

export async function joinCompany(
  deps: AppDeps,
  actor: Actor,
  input: { companyId?: string; inviteCode?: string },
) {
  let company: q.CompanyRow | undefined;
  if (input.inviteCode) company = await q.findCompanyByInviteCode(deps.db, input.inviteCode.toUpperCase());
  else if (input.companyId) company = await q.findCompany(deps.db, input.companyId);
  else throw new AppError(Code.BadRequest, C.joinTarget);
  if (!company || company.status !== CompanyStatus.Verified)
    throw new AppError(Code.NotFound, input.inviteCode ? C.inviteCodeInvalid : C.companyNotFound);
  const existing = await q.findMembership(deps.db, company.id, actor.userId);
  if (existing?.status === MemberStatus.Active) throw new AppError(Code.Refused, C.alreadyMember);
  if (existing?.status === MemberStatus.Pending) throw new AppError(Code.Refused, C.alreadyRequested);
  // A disabled member must not lift the administrator's decision by asking again.
  if (existing?.status === MemberStatus.Disabled) throw new AppError(Code.Refused, C.memberDisabled);
  await q.upsertMember(deps.db, {
    companyId: company.id,
    userId: actor.userId,
    role: 'operator',
    status: MemberStatus.Pending,
    now: deps.clock.now(),
  });
  const mine = (await q.membershipsOf(deps.db, actor.userId)).find((m) => m.companyId === company.id)!;
  return presentMine(mine);
}

export async function myCompanies(deps: AppDeps, actor: Actor) {
  return (await q.membershipsOf(deps.db, actor.userId)).map(presentMine);
}

export async function cancelJoin(deps: AppDeps, actor: Actor, memberId: string) {
  const mine = (await q.membershipsOf(deps.db, actor.userId)).find((m) => m.memberId === memberId);
  if (!mine) throw new AppError(Code.NotFound, C.memberNotFound);
  if (mine.status !== MemberStatus.Pending) throw new AppError(Code.Refused, C.memberWrongState);
  await q.setMemberStatus(
    deps.db,
    mine.companyId,
    memberId,
    [MemberStatus.Pending],
    MemberStatus.Removed,
    deps.clock.now(),
  );
}

// ---------- administration (session company only) ----------

export async function memberList(
  deps: AppDeps,
  actor: Actor,
  query: { keyword?: string; status?: MemberStatus; pageNum: number; pageSize: number },
) {
  const access = await requireCompanyRole(deps, actor, ADMIN);
  const { keyword, ...rest } = query;
  // Names by part, phones only in full (issue 23): the list shows phones masked, and a part must not unmask one.
  const page = await q.listMembers(deps.db, access.companyId, { ...rest, match: keywordMatch(keyword) });
  return {
    list: await withRolesAndLegalRep(deps, access.companyId, page.list.map(presentMember)),
    total: page.total,
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

export async function staffList(deps: AppDeps, actor: Actor) {
  const access = await requireCompanyRole(deps, actor, ANY_MEMBER);
  const page = await q.listMembers(deps.db, access.companyId, {
    activeOnly: true,
    pageNum: 1,
    pageSize: 500,
  });
  return withRolesAndLegalRep(deps, access.companyId, page.list.map(presentMember));
}

/** A member of the caller's company; ids of other companies' members are "not found" (scoped query). */
async function memberOf(deps: AppDeps, access: CompanyAccess, memberId: string) {
  const m = await q.findMemberInCompany(deps.db, access.companyId, memberId);
  if (!m) throw new AppError(Code.NotFound, C.memberNotFound);
  if (m.userId === access.userId) throw new AppError(Code.Refused, C.notYourself);
  return m;
}

async function transition(
  deps: AppDeps,
  actor: Actor,
  memberId: string,
  from: readonly MemberStatus[],
  to: MemberStatus,
) {
  const access = await requireCompanyRole(deps, actor, ADMIN);
  await memberOf(deps, access, memberId);
  const ok = await q.setMemberStatus(deps.db, access.companyId, memberId, from, to, deps.clock.now());
  if (!ok) throw new AppError(Code.Refused, C.memberWrongState);
  return presentMember((await q.findMemberInCompany(deps.db, access.companyId, memberId))!);
}

export const approveJoin = (deps: AppDeps, actor: Actor, memberId: string, isApproved: boolean) =>
  transition(
    deps,
    actor,
    memberId,
    [MemberStatus.Pending],
    isApproved ? MemberStatus.Active : MemberStatus.Rejected,
  );
export const disableOperator = (deps: AppDeps, actor: Actor, memberId: string) =>
  transition(deps, actor, memberId, [MemberStatus.Active], MemberStatus.Disabled);
export const enableOperator = (deps: AppDeps, actor: Actor, memberId: string) =>
  transition(deps, actor, memberId, [MemberStatus.Disabled], MemberStatus.Active);
export async function removeOperator(deps: AppDeps, actor: Actor, memberId: string) {
  await transition(
    deps,
    actor,
    memberId,
    [MemberStatus.Active, MemberStatus.Disabled, MemberStatus.Pending, MemberStatus.Rejected],
    MemberStatus.Removed,
  );
}

export async function transferAdmin(deps: AppDeps, actor: Actor, memberId: string): Promise<LoginInfo> {
  const access = await requireCompanyRole(deps, actor, ADMIN);
  const target = await memberOf(deps, access, memberId);
  if (target.role !== 'operator' || target.status !== MemberStatus.Active)
    throw new AppError(Code.Refused, C.handOverTarget);
  try {
    const done = await q.swapAdmin(deps.db, access.companyId, access.userId, memberId, deps.clock.now());
    if (!done) throw noPermission();
  } catch (err) {
    if (err instanceof q.HandOverRaced) throw new AppError(Code.Refused, C.handOverTarget);
    throw err;
  }
  return computeLoginInfo(deps, actor);
}

export async function exclusiveCode(deps: AppDeps, actor: Actor, isRenewed: boolean) {
  // Any active member may share the invitation; only the administrator may invalidate it.
  const access = await requireCompanyRole(deps, actor, isRenewed ? ADMIN : ANY_MEMBER);
  const company = (await q.findCompany(deps.db, access.companyId))!;
  let code = company.inviteCode;
  if (!code || isRenewed) {
    // 10 characters of an unambiguous alphabet: ~50 bits, not guessable within any rate limit.
    const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
    code = Array.from(randomBytes(10), (b) => alphabet[b % alphabet.length]).join('');
    await q.setInviteCode(deps.db, company.id, code);
  }
  const link = `${deps.config.publicUrl}/#/mobile/joinCompany?inviteCode=${code}`;
  return { code, link, companyName: company.name };
}

// ---------- pickers ----------

const HOUR_MS = 60 * 60 * 1000;

/**
 * Look-ups in the member and signer pickers (chooseUserList, chooseUserOperatorList, searchCompanyOperator) per
 * account per hour, all three together, refused ones included: plenty for launching contracts by hand, far too
 * few to sweep names or phone numbers (issue 23).
 */
export const PICKER_MAX_PER_HOUR = 200;

async function countPickerLookup(deps: AppDeps, actor: Actor) {
  const hits = await hitSlidingCounter(deps.db, `picker:${actor.userId}`, HOUR_MS, deps.clock.now());
  if (hits > PICKER_MAX_PER_HOUR) throw new AppError(Code.RateLimited, C.pickerTooMany);
}

const picked = (m: { userId: string; name: string | null; phone: string }) => ({
  userId: m.userId,
  name: m.name,
  phone: maskPhone(m.phone),
});

export async function searchCompanyOperator(
  deps: AppDeps,
  actor: Actor,
  query: { keyword?: string; pageNum: number; pageSize: number },
) {
  await countPickerLookup(deps, actor);
  const access = await requireCompanyRole(deps, actor, ANY_MEMBER);
  const page = await q.listMembers(deps.db, access.companyId, {
    pageNum: query.pageNum,
    pageSize: query.pageSize,
    match: keywordMatch(query.keyword),
    activeOnly: true,
  });
  return {
    list: page.list.map((m) => ({ ...picked(m), role: m.role })),
    total: page.total,
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

export async function chooseUsers(deps: AppDeps, actor: Actor, keyword: string) {
  await countPickerLookup(deps, actor);
  // Exact matches only (full phone or full name): a picker must not become a way to list strangers.
  const by = pickerKeyword(keyword);
  if ('none' in by) return [];
  return (await findUsersByPhoneOrName(deps.db, by)).filter((u) => u.status === 'active').map(picked);
}

/**
 * The company signer picker: active members of a company (companyId; default the session's company), for its
 * ADMINISTRATORS only. Anyone else (an outsider, an operator, a disabled or removed administrator) gets the
 * answer a company that does not exist gets, so the call tells nothing about a company or its members. Names
 * match by part, a phone only in full (issue 23, M1). A launcher who does not administer the company types
 * the operator's full phone instead.
 */
export async function chooseOperators(
  deps: AppDeps,
  actor: Actor,
  input: { companyId?: string; keyword?: string },
) {
  await countPickerLookup(deps, actor);
  const companyId = input.companyId ?? (actor.userType === UserType.Company ? actor.companyId : null);
  if (!companyId) throw new AppError(Code.Refused, C.notActingForCompany);
  const me = await q.membershipOf(deps.db, companyId, actor.userId);
  const isAdmin =
    me?.role === 'admin' && me.status === MemberStatus.Active && me.cs === CompanyStatus.Verified;
  if (!isAdmin) throw new AppError(Code.NotFound, C.companyNotFound);
  const page = await q.listMembers(deps.db, companyId, {
    match: keywordMatch(input.keyword),
    activeOnly: true,
    pageNum: 1,
    pageSize: 50,
  });
  return page.list.map((m) => ({ ...picked(m), role: m.role }));
}

// ---------- identities ----------

export async function switchableAccounts(
  deps: AppDeps,
  actor: Actor,
): Promise<z.infer<typeof zSwitchableAccount>[]> {
  const info = await computeLoginInfo(deps, { ...actor, userType: UserType.Person, companyId: null });
  const companies = await activeCompaniesOf(deps, actor.userId);
  return [
    {
      userType: UserType.Person,
      companyId: null,
      name: info.name,
      role: null,
      isCurrent: actor.userType === UserType.Person,
    },
    ...companies.map((c) => ({
      userType: UserType.Company,
      companyId: c.id,
      name: c.name,
      role: c.role,
      isCurrent: actor.userType === UserType.Company && actor.companyId === c.id,
    })),
  ];
}

export async function switchAccount(
  deps: AppDeps,
  session: LiveSession,
  target: { targetUserType: number; companyId?: string },
): Promise<LoginInfo> {
  let companyId: string | null = null;
  if (target.targetUserType === UserType.Company) {
    if (!target.companyId) throw new AppError(Code.BadRequest, C.needCompanyId);
    const companies = await activeCompaniesOf(deps, session.userId);
    // Only a company where the caller is an active member: anything else is a permission refusal.
    if (!companies.some((c) => c.id === target.companyId)) throw noPermission();
    companyId = target.companyId;
  }
  await switchSessionIdentity(deps, session, target.targetUserType, companyId);
  return computeLoginInfo(deps, { ...session, userType: target.targetUserType, companyId });
}
