import { LoginState, UserType } from '#contract/enums.ts';
import type { LoginInfo } from '#contract/calls/session.ts';
import type { AppDeps } from '../../deps.ts';
import { personHasCaCert } from '../person/index.ts';
import { hasUsableSeal } from '../seal/index.ts';
import { companyLoginFlags } from '../company/index.ts';
import { quotaLoginFields, salePackageProductTypes } from '../package/index.ts';
import { findUserById } from './account-queries.ts';
import type { LiveSession } from './session-service.ts';
import { cachesOf, loginInfoKey } from './caches.ts';

/**
 * The login-info fields of SPEC §3 for a live session, computed in this one place. Later issues extend it:
 * certificates set hasCaCert, seals hasSeal, companies companyName/isAdmin/hasOperator, packages the
 * product types and quantities. Until they arrive these are false / empty / 0.
 */
export async function computeLoginInfo(deps: AppDeps, session: LiveSession): Promise<LoginInfo> {
  const user = await findUserById(deps.db, session.userId);
  if (!user) throw new Error(`session ${session.id} names a missing user`);
  const company = await companyLoginFlags(deps, session);
  return {
    userId: user.id,
    userType: session.userType,
    loginState: LoginState.Verified,
    phone: user.phone,
    name: user.name,
    companyId: session.companyId,
    companyName: company.companyName,
    isAdmin: company.isAdmin,
    // A person's certificate; a company session's flag belongs to the company part.
    hasCaCert:
      session.userType === UserType.Person ? await personHasCaCert(deps, user.id) : company.hasCaCert,
    hasSeal: await hasUsableSeal(deps, session),
    hasOperator: company.hasOperator,
    // Packages: the sale product types of the live packages, and the quota (starter allowance + packages).
    salePackageProductTypeList: await salePackageProductTypes(deps, session),
    ...(await quotaLoginFields(deps, session)),
  };
}

/**
 * The login info as getEsignLoginInfo answers it: from the cache while nothing it reads has changed (the
 * client asks on every screen), else computed. `fresh` drops the cached copy first (updateLoginUserInfoCache).
 */
export function loginInfoOf(deps: AppDeps, session: LiveSession, fresh = false): Promise<LoginInfo> {
  const cache = cachesOf(deps).loginInfo;
  const key = loginInfoKey(session);
  if (fresh) cache.delete(key);
  return cache.get(key, deps.clock.now().getTime(), () => computeLoginInfo(deps, session));
}
