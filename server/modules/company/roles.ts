// Company roles (issue 27): who may do what for a company beside being a member. The administrator
// (company_members.role 'admin') may do everything an administrator did before; the granted roles are
// handler (launches and signs for the company), seal_keeper (manages the seals they keep) and approver
// (approves seal uses where a seal's policy names them). Every change goes into the company's audit trail.
import type { Actor } from '../../lib/actor.ts';
import { Code } from '#contract/codes.ts';
import type { Exec } from '../../db/sql-helpers.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { Member } from '#contract/calls/company.ts';
import { legalRepAmong } from './legal-rep.ts';
import { listActiveMembers, requireCompanyRole } from './membership.ts';
import * as rq from './role-queries.ts';
import { type GrantedRole, GRANTED_ROLES } from './role-queries.ts';
import { C } from './texts.ts';

export { GRANTED_ROLES, type GrantedRole };
/** A member's roles: 'admin' for the administrator, then the granted ones. */
export type MemberRole = 'admin' | GrantedRole;

/**
 * The roles an ACTIVE member of the company holds now (empty for anyone else: a disabled or removed member
 * holds none, so a revoked role or membership takes effect on the next call).
 */
export async function memberRoles(deps: AppDeps, companyId: string, userId: string): Promise<MemberRole[]> {
  const me = (await listActiveMembers(deps, companyId)).find((m) => m.userId === userId);
  if (!me) return [];
  const granted = await rq.rolesOf(deps.db, companyId, userId);
  return me.role === 'admin' ? ['admin', ...granted] : granted;
}

/** Whether an active member holds the role now (the administrator holds 'admin' only unless granted more). */
export async function hasMemberRole(
  deps: AppDeps,
  companyId: string,
  userId: string,
  role: MemberRole,
): Promise<boolean> {
  return (await memberRoles(deps, companyId, userId)).includes(role);
}

/** Active members holding the role now. */
export async function membersWithRole(
  deps: AppDeps,
  companyId: string,
  role: GrantedRole,
): Promise<{ userId: string; name: string | null; phone: string }[]> {
  const roles = await rq.rolesOfCompany(deps.db, companyId);
  return (await listActiveMembers(deps, companyId))
    .filter((m) => roles.get(m.userId)?.includes(role))
    .map(({ userId, name, phone }) => ({ userId, name, phone }));
}

/** Records one entry of the company's audit trail, in the transaction of the change it reports. */
export function recordCompanyEvent(
  ex: Exec,
  e: {
    companyId: string;
    kind: string;
    actorUserId: string | null;
    subjectUserId?: string | null;
    detail?: Record<string, unknown> | null;
    now: Date;
  },
): Promise<void> {
  return rq.insertCompanyEvent(ex, {
    ...e,
    subjectUserId: e.subjectUserId ?? null,
    detail: e.detail ?? null,
  });
}

/**
 * Administrator: sets a member's granted roles to exactly `roles` (the member must be an active or disabled
 * member of the Actor's company). Each role added or removed is one audit entry (`role_granted`,
 * `role_revoked`, detail `{role}`); answers the member's roles after.
 */
export async function setMemberRoles(
  deps: AppDeps,
  actor: Actor,
  v: { userId: string; roles: readonly GrantedRole[] },
): Promise<MemberRole[]> {
  const access = await requireCompanyRole(deps, actor, ['admin']);
  const member = (await listActiveMembers(deps, access.companyId)).find((m) => m.userId === v.userId);
  if (!member) throw new AppError(Code.NotFound, C.memberNotFound);
  const want = new Set(v.roles);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    for (const role of GRANTED_ROLES) {
      const changed = want.has(role)
        ? await rq.grantRole(tx, {
            companyId: access.companyId,
            userId: v.userId,
            role,
            by: actor.userId,
            now,
          })
        : await rq.revokeRole(tx, { companyId: access.companyId, userId: v.userId, role });
      if (changed)
        await recordCompanyEvent(tx, {
          companyId: access.companyId,
          kind: want.has(role) ? 'role_granted' : 'role_revoked',
          actorUserId: actor.userId,
          subjectUserId: v.userId,
          detail: { role },
          now,
        });
    }
  });
  return memberRoles(deps, access.companyId, v.userId);
}

/**
 * A member list with each member's roles ('admin', then the granted ones) and the legal representative marked:
 * the member whose verified real name is the company's registered legal representative's, or the applicant who
 * opened the company as its legal representative.
 */
export async function withRolesAndLegalRep(
  deps: AppDeps,
  companyId: string,
  list: Member[],
): Promise<Member[]> {
  const granted = await rq.rolesOfCompany(deps.db, companyId);
  const isLegalRep = await legalRepAmong(
    deps,
    companyId,
    list.map((m) => m.userId),
  );
  return list.map((m) => ({
    ...m,
    roles: [...(m.role === 'admin' ? (['admin'] as const) : []), ...(granted.get(m.userId) ?? [])],
    isLegalRep: isLegalRep(m.userId),
  }));
}
