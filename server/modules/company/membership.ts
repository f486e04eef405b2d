import type { Actor } from '../../lib/actor.ts';
import { Code } from '#contract/codes.ts';
import { UserType } from '#contract/enums.ts';
import { CompanyStatus, MemberStatus } from '../../db/schema/company.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, noPermission } from '../../http/app-error.ts';
import { T } from '../../http/texts.ts';
import { pkiFor } from '../pki/index.ts';
import { isLegalRepresentative } from './legal-rep.ts';
import * as q from './queries.ts';
import { type GrantedRole, rolesOf } from './role-queries.ts';
import { C } from './texts.ts';

// The API other modules (seals, contracts, ...) use to ask "who may act for which company".

type CompanyRole = 'admin' | 'operator';
/**
 * What a call may ask of its caller: 'admin' (the administrator), 'operator' (any active member), a role
 * granted beside membership ('handler', 'seal_keeper', 'approver'; company_member_roles, issue 27) or
 * 'legal_rep' (the member who is the company's legal representative, legal-rep.ts).
 */
export type RequiredRole = CompanyRole | GrantedRole | 'legal_rep';
export type CompanyAccess = {
  companyId: string;
  companyName: string;
  role: CompanyRole;
  userId: string;
  /** The caller was admitted as the legal representative (asked only where 'legal_rep' was asked for). */
  isLegalRep?: boolean;
};

/**
 * The caller's role in the session's company (userType 1 session with companyId). Throws AppError 2000
 * when no session, Code.Refused when the session acts for no company, and HTTP 602 (noPermission()) when
 * the caller is not an active member with one of `roles`: 'operator' admits any active member, 'admin' the
 * administrator, a granted role a member holding it now (read on every call: a revoked role stops the next
 * call). The company always comes from the session, never from a request body: a caller cannot name another
 * company to act for it.
 */
export async function requireCompanyRole(
  deps: AppDeps,
  actor: Actor | null,
  roles: readonly RequiredRole[],
): Promise<CompanyAccess> {
  if (!actor) throw new AppError(Code.NotLoggedIn, T.notLoggedIn);
  if (actor.userType !== UserType.Company || !actor.companyId)
    throw new AppError(Code.Refused, C.notActingForCompany);
  const m = await q.membershipOf(deps.db, actor.companyId, actor.userId);
  // Authorisation: only an ACTIVE member of a VERIFIED company, with one of the roles asked for.
  if (!m || m.status !== MemberStatus.Active || m.cs !== CompanyStatus.Verified) throw noPermission();
  const granted = roles.filter(
    (r): r is GrantedRole => r !== 'admin' && r !== 'operator' && r !== 'legal_rep',
  );
  const access = { companyId: actor.companyId, companyName: m.name, role: m.role, userId: actor.userId };
  if (roles.includes('legal_rep') && (await isLegalRepresentative(deps, actor.companyId, actor.userId)))
    return { ...access, isLegalRep: true };
  const admitted =
    roles.includes(m.role) ||
    roles.includes('operator') ||
    (granted.length > 0 &&
      (await rolesOf(deps.db, actor.companyId, actor.userId)).some((r) => granted.includes(r)));
  if (!admitted) throw noPermission();
  return access;
}

/** The roles that launch and sign for a company: its administrator, or a member holding 'handler'. */
export const HANDLING: readonly RequiredRole[] = ['admin', 'handler'];

/** A company by id (any status except rejected applications stay readable: pending or verified). */
export async function getCompany(
  deps: AppDeps,
  companyId: string,
): Promise<
  | { id: string; name: string; creditCode: string; legalRepName: string; status: 'pending' | 'verified' }
  | undefined
> {
  const c = await q.companySummary(deps.db, companyId);
  if (!c || c.status === CompanyStatus.Rejected) return undefined;
  return { ...c, status: c.status };
}

/** Active members of a company (administrator first, then operators by joining time). */
export async function listActiveMembers(
  deps: AppDeps,
  companyId: string,
): Promise<{ userId: string; name: string | null; phone: string; role: CompanyRole }[]> {
  const rows = await q.activeMembersOf(deps.db, companyId);
  return rows.sort((a, b) => (a.role === b.role ? 0 : a.role === 'admin' ? -1 : 1));
}

/**
 * Companies a user may log into or switch to: verified companies where the user is an ACTIVE member
 * (a pending, disabled, rejected or removed membership gives no access). Used by the session module's
 * companiesOf for userLogin (userType 1) and userOperatorLogin.
 */
export async function activeCompaniesOf(
  deps: AppDeps,
  userId: string,
): Promise<{ id: string; name: string; role: CompanyRole }[]> {
  return q.verifiedCompaniesWhereActive(deps.db, userId);
}

/**
 * The company fields of the login info for a session acting for a company (computeLoginInfo calls this).
 * hasOperator: the company has at least one active member who can act for it as operator. The
 * administrator counts: every operator right is also the administrator's (requireCompanyRole admits
 * 'admin' wherever it admits 'operator'), so a company whose administrator is active "has an operator"
 * (SPEC §6's package rule: certificate + seal + operator). A company whose members are all disabled or
 * gone has none.
 */
export async function companyLoginFlags(
  deps: AppDeps,
  actor: Pick<Actor, 'userId' | 'userType' | 'companyId'>,
): Promise<{
  companyName: string | null;
  isAdmin: boolean;
  hasCaCert: boolean;
  hasOperator: boolean;
  roles: ('admin' | GrantedRole)[];
  isLegalRep: boolean;
}> {
  const none = {
    companyName: null,
    isAdmin: false,
    hasCaCert: false,
    hasOperator: false,
    roles: [],
    isLegalRep: false,
  };
  if (actor.userType !== UserType.Company || !actor.companyId) return none;
  const company = await getCompany(deps, actor.companyId);
  if (!company || company.status !== CompanyStatus.Verified) return none;
  const members = await listActiveMembers(deps, company.id);
  const me = members.find((m) => m.userId === actor.userId);
  const cert = await (await pkiFor(deps)).current({ userType: UserType.Company, accountId: company.id });
  return {
    companyName: company.name,
    isAdmin: me?.role === 'admin',
    hasCaCert: cert !== undefined,
    hasOperator: members.length > 0,
    // The caller's roles now (the login info's cache is dropped on any write to company_member_roles).
    roles: me
      ? [
          ...(me.role === 'admin' ? (['admin'] as const) : []),
          ...(await rolesOf(deps.db, company.id, actor.userId)),
        ]
      : [],
    isLegalRep: me ? await isLegalRepresentative(deps, company.id, actor.userId) : false,
  };
}

/** The verified company with this exact registered name, if any (a template names a company party so). */
export function verifiedCompanyIdByName(deps: AppDeps, name: string): Promise<string | undefined> {
  return q.verifiedCompanyIdByName(deps.db, name);
}

/**
 * A company by its exact name (a signer's readiness before launch): a verified one first, the lowest id among
 * equals; pending ones too.
 */
export function companyByName(
  deps: AppDeps,
  name: string,
): Promise<{ id: string; status: string } | undefined> {
  return q.findCompanyByName(deps.db, name, { verifiedOnly: false });
}

/** The verified company with this credit code, if any (a group purchase names its receivers so). */
export function verifiedCompanyByCreditCode(
  deps: AppDeps,
  creditCode: string,
): Promise<{ id: string; name: string; creditCode: string } | undefined> {
  return q.verifiedCompanyByCreditCode(deps.db, creditCode);
}

/** Names and credit codes of these companies, ordered by name (a group purchase's receivers). */
export function companyNamesOf(
  deps: AppDeps,
  ids: string[],
): Promise<{ id: string; name: string; creditCode: string }[]> {
  return q.companyNamesOf(deps.db, [...new Set(ids)]);
}
