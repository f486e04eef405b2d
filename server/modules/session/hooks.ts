import type { Actor } from '../../lib/actor.ts';
import type { LoginInfo } from '#contract/calls/session.ts';
import type { AppDeps } from '../../deps.ts';
import { defineHook } from '../../lib/hooks.ts';

// What the session module asks the modules above it, without importing them (lib/hooks.ts, README.md).

/** The fields of the login info (SPEC §3) that other modules know; session fills in the account's own. */
export type LoginFacts = Partial<
  Pick<
    LoginInfo,
    | 'companyName'
    | 'isAdmin'
    | 'hasCaCert'
    | 'hasSeal'
    | 'hasOperator'
    | 'roles'
    | 'isLegalRep'
    | 'salePackageProductTypeList'
    | 'totalQuantitySum'
    | 'totalReserveQuantity'
    | 'totalUseQuantity'
    | 'remainQuantity'
  >
>;

/**
 * "Your part of this session's login info": person (a person's certificate), company (company name,
 * administrator, the company's certificate, operator), seal (a usable seal), package (product types,
 * quota) answer. Each field has one owner: a field told twice is a programming error.
 */
export const loginFacts = defineHook<{ deps: AppDeps; actor: Actor }, LoginFacts>('session.loginFacts');

/**
 * "The companies this user may act for" (operator login, partner logins): the company module answers with
 * the verified companies where the user is an active member. Exactly one listener.
 */
export const actingCompanies = defineHook<{ deps: AppDeps; userId: string }, { id: string; name: string }[]>(
  'session.actingCompanies',
);
