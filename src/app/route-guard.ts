import { PlatformCode } from '#contract/enums.ts';
import { getEsignLoginInfo } from '@/api/session.ts';
import { browser } from '@/lib/browser.ts';
import { syncPlatformFromQuery } from '@/platform/platform-store.ts';
import { getToken, useSessionStore } from '@/session/session-store.ts';
import { loginRedirect, paths } from '@/config/paths.ts';

/** The query parameter a partner platform's link carries its login token in (contract: JS_TOKEN_PARAM). */
export const JS_TOKEN_PARAM = 'jsToken';

/** What a route needs: set on route objects as `handle`; the deepest route that says so decides. */
export type RouteHandle = {
  access?: 'public' | 'protected';
  scope?: 'pc' | 'mobile';
  /**
   * The screen and its layouts render no antd component (the signing room): antd's theme provider, and with
   * it antd's core and the computing of its theme, are not loaded for it (src/app/root-layout.tsx).
   */
  isPlainUi?: boolean;
};

/** True when a matched route says its screen renders without antd. */
export const isPlainUiOf = (handles: readonly (RouteHandle | undefined)[]): boolean =>
  handles.some((h) => h?.isPlainUi === true);
type RouteAccess = { isProtected: boolean; scope: 'pc' | 'mobile' };

export function accessFromHandles(handles: readonly (RouteHandle | undefined)[]): RouteAccess {
  let isProtected = false;
  let scope: RouteAccess['scope'] = 'pc';
  for (const handle of handles) {
    if (handle?.access) isProtected = handle.access === 'protected';
    if (handle?.scope) scope = handle.scope;
  }
  return { isProtected, scope };
}

/**
 * SPEC §2 route guard, run before every navigation. Returns where to go instead, or null to proceed.
 * - The platform code of the `fromPtCode` query is kept in session storage (default BCP_STFWPT); partner
 *   sites link `/?fromPtCode=X#/` (the code before the hash), which counts too (the route's own query wins).
 * - A partner's `jsToken` in the query logs in first (partner-login.ts) and leaves the URL.
 * - Skipped on the login page and inside a frame. Partner platforms own their login: no redirect to ours,
 *   but a login this browser already has is still checked, so a new tab shows the logged-in workspace.
 * - No token cookie on a protected route → the login page of its scope with `next` and `nextType=route`.
 * - With a token, the login-state check: data → verified (state 11, info cached); null → clear the token,
 *   cached info and local storage (a protected route then goes to log in like one without a token).
 */
export async function runRouteGuard(url: URL, access: RouteAccess): Promise<string | null> {
  if (typeof window !== 'undefined' && window.location.search) syncPlatformFromQuery(window.location.search);
  const code = syncPlatformFromQuery(url.search);
  // A partner's login link (any route, any platform): exchanged for a session before the rules below. Its
  // code loads only for such a link, not on every first visit.
  if (new URLSearchParams(url.search).has(JS_TOKEN_PARAM)) {
    const { consumePartnerToken } = await import('./partner-login.ts');
    const afterPartnerLogin = await consumePartnerToken(url);
    if (afterPartnerLogin !== null) return afterPartnerLogin;
  }
  if (url.pathname === paths.loginPage) return null;
  if (browser.isFramed()) return null;
  const isPartner = Boolean(code && code !== PlatformCode.Default);

  const wanted = url.pathname + url.search;
  const toLogin = () => {
    if (isPartner) return null;
    const target = loginRedirect(access.scope === 'mobile' ? paths.mobileLogin : paths.loginPage, wanted);
    // Never redirect to where we already are (the router's duplicate navigation): proceed instead.
    return target === wanted ? null : target;
  };

  if (!getToken()) return access.isProtected ? toLogin() : null;

  let info: Awaited<ReturnType<typeof getEsignLoginInfo>> | undefined;
  try {
    info = await getEsignLoginInfo();
  } catch {
    // Session codes (2000/3000/4000) were handled by http.ts, which already cleared the token.
    // A network or HTTP failure says nothing about the session: keep it and let the screen retry.
    return !getToken() && access.isProtected ? toLogin() : null;
  }
  if (info) {
    useSessionStore.getState().setVerified(info);
    return null;
  }
  useSessionStore.getState().clearLocalLogin();
  return access.isProtected ? toLogin() : null;
}
