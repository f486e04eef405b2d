import { updateLoginUserInfoCache } from '@/api/session.ts';
import { useSessionStore } from './session-store.ts';

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
