// The company's legal representative (法定代表人, issue 27) among its members: the applicant who opened the
// company as its legal representative, or a member whose verified real name is the registered legal
// representative's. The member lists mark them; they may issue, revoke and accept authorisation letters and
// manage every seal as the administrator does (requireCompanyRole's 'legal_rep').
import type { AppDeps } from '../../deps.ts';
import { verifiedNames } from './hooks.ts';
import * as q from './queries.ts';

/** Which of these users is the company's legal representative, by the company's data and their real names. */
export async function legalRepAmong(
  deps: AppDeps,
  companyId: string,
  userIds: string[],
): Promise<(userId: string) => boolean> {
  const company = await q.findCompany(deps.db, companyId);
  if (!company) return () => false;
  const names = new Map<string, string>();
  const legalRep = company.legalRepName.trim();
  if (legalRep !== '' && userIds.length > 0)
    for (const answer of await deps.hooks.collect(verifiedNames, { deps, userIds }))
      for (const [id, name] of answer) names.set(id, name);
  return (userId) =>
    (company.applicantRole === 'legal_rep' && company.applicantUserId === userId) ||
    (legalRep !== '' && names.get(userId) === legalRep);
}

/** Whether the user is the company's legal representative (membership is the caller's check). */
export async function isLegalRepresentative(deps: AppDeps, companyId: string, userId: string) {
  return (await legalRepAmong(deps, companyId, [userId]))(userId);
}
