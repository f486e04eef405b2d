import type { LoginInfo } from '#contract/calls/session.ts';

/**
 * Whether the logged-in account may launch contracts (issue 27): a person always; for a company its
 * administrator or a contract handler (the login info's `roles`). The server refuses the others anyway (602);
 * this only hides what they cannot use. An older cached login info without `roles` shows everything.
 */
export function mayLaunch(info: Pick<LoginInfo, 'userType'> & { roles?: LoginInfo['roles'] }): boolean {
  if (info.userType !== 1 || !info.roles) return true;
  return info.roles.includes('admin') || info.roles.includes('handler');
}
