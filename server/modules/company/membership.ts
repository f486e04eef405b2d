import { and, asc, eq } from 'drizzle-orm';
import { Code } from '#contract/codes.ts';
import { UserType } from '#contract/enums.ts';
import { users } from '../../db/schema/accounts.ts';
import { CompanyStatus, MemberStatus, companies, companyMembers } from '../../db/schema/company.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, noPermission } from '../../http/app-error.ts';
import { T } from '../../http/texts.ts';
import { pkiFor } from '../pki/index.ts';
import type { LiveSession } from '../session/index.ts';
import { C } from './texts.ts';

// The API other modules (seals, contracts, ...) use to ask "who may act for which company".

export type CompanyRole = 'admin' | 'operator';
export type CompanyAccess = { companyId: string; companyName: string; role: CompanyRole; userId: string };

/**
 * The caller's role in the session's company (userType 1 session with companyId). Throws AppError 2000
 * when no session, Code.Refused when the session acts for no company, and HTTP 602 (noPermission()) when
 * the caller is not an active member with one of `roles`.
 * The company always comes from the session, never from a request body: a caller cannot name another
 * company to act for it.
 */
export async function requireCompanyRole(
  deps: AppDeps,
  session: LiveSession | null,
  roles: readonly CompanyRole[],
): Promise<CompanyAccess> {
  if (!session) throw new AppError(Code.NotLoggedIn, T.notLoggedIn);
  if (session.userType !== UserType.Company || !session.companyId)
    throw new AppError(Code.Refused, C.notActingForCompany);
  const rows = await deps.db
    .select({
      role: companyMembers.role,
      status: companyMembers.status,
      name: companies.name,
      cs: companies.status,
    })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(and(eq(companyMembers.companyId, session.companyId), eq(companyMembers.userId, session.userId)))
    .limit(1);
  const m = rows[0];
  // Authorisation: only an ACTIVE member of a VERIFIED company, with one of the roles asked for.
  if (!m || m.status !== MemberStatus.Active || m.cs !== CompanyStatus.Verified || !roles.includes(m.role))
    throw noPermission();
  return { companyId: session.companyId, companyName: m.name, role: m.role, userId: session.userId };
}

/** A company by id (any status except rejected applications stay readable: pending or verified). */
export async function getCompany(
  deps: AppDeps,
  companyId: string,
): Promise<
  | { id: string; name: string; creditCode: string; legalRepName: string; status: 'pending' | 'verified' }
  | undefined
> {
  const rows = await deps.db
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
  const c = rows[0];
  if (!c || c.status === CompanyStatus.Rejected) return undefined;
  return { ...c, status: c.status };
}

/** Active members of a company (administrator first, then operators by joining time). */
export async function listActiveMembers(
  deps: AppDeps,
  companyId: string,
): Promise<{ userId: string; name: string | null; phone: string; role: CompanyRole }[]> {
  const rows = await deps.db
    .select({ userId: users.id, name: users.name, phone: users.phone, role: companyMembers.role })
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.status, MemberStatus.Active)))
    .orderBy(asc(companyMembers.createdAt));
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
  return deps.db
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
  session: Pick<LiveSession, 'userId' | 'userType' | 'companyId'>,
): Promise<{ companyName: string | null; isAdmin: boolean; hasCaCert: boolean; hasOperator: boolean }> {
  const none = { companyName: null, isAdmin: false, hasCaCert: false, hasOperator: false };
  if (session.userType !== UserType.Company || !session.companyId) return none;
  const company = await getCompany(deps, session.companyId);
  if (!company || company.status !== CompanyStatus.Verified) return none;
  const members = await listActiveMembers(deps, company.id);
  const me = members.find((m) => m.userId === session.userId);
  const cert = await (await pkiFor(deps)).current({ userType: UserType.Company, accountId: company.id });
  return {
    companyName: company.name,
    isAdmin: me?.role === 'admin',
    hasCaCert: cert !== undefined,
    hasOperator: members.length > 0,
  };
}
