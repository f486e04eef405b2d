import type { Actor } from '../../lib/actor.ts';
import { LoginState } from '#contract/enums.ts';
import type { LoginInfo } from '#contract/calls/session.ts';
import type { AppDeps } from '../../deps.ts';
import { findUserById } from './account-queries.ts';
import { cachesOf, loginInfoKey } from './caches.ts';
import { type LoginFacts, loginFacts } from './hooks.ts';
import type { LiveSession } from './session-service.ts';

/**
 * The login-info fields of SPEC §3 for a live session, computed in this one place: the account's own
 * fields here, the rest from the modules that listen to `loginFacts` (person: a person's certificate;
 * company: company name, administrator, the company's certificate, operator; seal: a usable seal;
 * package: product types and quota). A field nobody tells stays false / null / empty / 0.
 */
export async function computeLoginInfo(deps: AppDeps, actor: Actor): Promise<LoginInfo> {
  const user = await findUserById(deps.db, actor.userId);
  if (!user) throw new Error(`user ${actor.userId} is missing`);
  const info: LoginInfo = {
    userId: user.id,
    userType: actor.userType,
    loginState: LoginState.Verified,
    phone: user.phone,
    name: user.name,
    companyId: actor.companyId,
    companyName: null,
    isAdmin: false,
    hasCaCert: false,
    hasSeal: false,
    hasOperator: false,
    roles: [],
    isLegalRep: false,
    salePackageProductTypeList: [],
    totalQuantitySum: 0,
    totalReserveQuantity: 0,
    totalUseQuantity: 0,
    remainQuantity: 0,
  };
  const told = new Set<string>();
  for (const facts of await deps.hooks.collect(loginFacts, { deps, actor })) {
    for (const [field, value] of Object.entries(facts) as [keyof LoginFacts, unknown][]) {
      if (value === undefined) continue;
      if (told.has(field)) throw new Error(`login info: ${field} told by two modules`);
      told.add(field);
      (info as Record<string, unknown>)[field] = value;
    }
  }
  return info;
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
