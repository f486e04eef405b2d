import { loginEsign } from '@/api/partner.ts';
import { nextTarget } from '@/features/auth/next-target.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { paths } from '@/config/paths.ts';
import { JS_TOKEN_PARAM } from './route-guard.ts';
import { showApiError } from '@/api/http.ts';

/**
 * A partner platform opens the product with `?fromPtCode=ZHDB&jsToken=<token>` on any route. Before any
 * other rule of the guard, the token is exchanged for a session here (loginEsign) and removed from the URL,
 * so that it is neither kept in the history nor sent a second time (it is single-use anyway).
 * Returns where to go next, or null when the URL carries no token.
 * - Success: the login info is cached; from a login page the user continues to `next` (or /manage), from
 *   any other route to that route without the token.
 * - Refusal: the message is shown and the user continues without the token (the guard then applies).
 */
export async function consumePartnerToken(url: URL): Promise<string | null> {
  const query = new URLSearchParams(url.search);
  const jsToken = query.get(JS_TOKEN_PARAM);
  if (jsToken === null) return null;
  query.delete(JS_TOKEN_PARAM);
  const rest = query.toString();
  const withoutToken = url.pathname + (rest ? `?${rest}` : '');
  if (!jsToken) return withoutToken;
  try {
    const info = await loginEsign(jsToken);
    useSessionStore.getState().setVerified(info);
  } catch (error) {
    showApiError(error);
    return withoutToken;
  }
  const isLoginPage = url.pathname === paths.loginPage || url.pathname === paths.mobileLogin;
  return isLoginPage ? nextTarget(rest ? `?${rest}` : '') : withoutToken;
}
