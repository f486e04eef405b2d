// Typed client of contract/calls/session.ts. Only types come from the contract (no zod in the bundle);
// the prefixes are typed as the contract's constants, so a typo here is a type error.
import type * as calls from '#contract/calls/session.ts';
import * as P from '#contract/paths/session.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { call } from './http.ts';

export type { LoginInfo } from '#contract/calls/session.ts';

export const sendSmsCode = call<typeof calls.sendSmsCode>(P.sendSmsCode);

export const userRegister = call<typeof calls.userRegister>(P.userRegister);

export const userLogin = call<typeof calls.userLogin>(P.userLogin);

export const userOperatorLogin = call<typeof calls.userOperatorLogin>(P.userOperatorLogin);

export const logout = call<typeof calls.logout>(P.logout);

export const resetPassword = call<typeof calls.resetPassword>(P.resetPassword);

/** The route guard's login-state check (SPEC §2). */
export const getEsignLoginInfo = call<typeof calls.getEsignLoginInfo>(P.getEsignLoginInfo);

export const getUserQualification = call<typeof calls.getUserQualification>(P.getUserQualification);

export const updateLoginUserInfoCache = call<typeof calls.updateLoginUserInfoCache>(
  P.updateLoginUserInfoCache,
);

export const isHyCenterLogin = call<typeof calls.isHyCenterLogin>(P.isHyCenterLogin);

export const getSaleProductTypeList = call<typeof calls.getSaleProductTypeList>(P.getSaleProductTypeList);

/**
 * After a change the login info's flags and quantities follow (name, certificate, seals, a purchase or a
 * launch): refresh the cached copy. A failure here is not the user's problem: the screen already shows the
 * server's answer, and the cache catches up at the next login-state check.
 */
export async function refreshLoginInfo(): Promise<void> {
  try {
    useSessionStore.getState().setVerified(await updateLoginUserInfoCache());
  } catch {
    // expected only as a failed refresh call (already shown by the HTTP layer if it was one): see above
  }
}
