import type { LoginInfo } from '#contract/calls/session.ts';
import { LoginState, UserType } from '#contract/enums.ts';
import { TOKEN_COOKIE } from '#contract/transport.ts';
import { create } from 'zustand';
import { LOCALE_STORAGE_KEY } from '@/i18n/i18n-store.ts';
import { getCookie, removeCookie } from '@/lib/cookies.ts';
import { forgetFrameSession, frameSessionToken } from './frame-session.ts';
import { localStore, sessionStore } from '@/lib/safe-storage.ts';

/** Session-storage key of the cached login info (ARCHITECTURE.md "Sessions"). */
export const USER_INFO_KEY = 'userInfo';

/** The session's XSRF token: the `token` cookie, or the token a framed login answered. */
export const getToken = (): string | undefined => getCookie(TOKEN_COOKIE) || frameSessionToken() || undefined;

function readCachedUserInfo(): LoginInfo | null {
  try {
    const raw = sessionStore.getItem(USER_INFO_KEY);
    return raw ? (JSON.parse(raw) as LoginInfo) : null;
  } catch {
    return null; // not JSON: as if nothing were cached
  }
}

type SessionState = {
  loginState: LoginState;
  userInfo: LoginInfo | null;
  /** Logged in and checked by the server: state 11, login info cached in session storage. */
  setVerified: (info: LoginInfo) => void;
  /** Codes 2000/3000/4000 and logout: token cookie, cached user info and local storage go. */
  clearLocalLogin: () => void;
};

function initialState(): Pick<SessionState, 'loginState' | 'userInfo'> {
  const userInfo = readCachedUserInfo();
  if (!getToken()) return { loginState: LoginState.LoggedOut, userInfo: null };
  return { loginState: userInfo ? LoginState.Verified : LoginState.TokenPresent, userInfo };
}

export const useSessionStore = create<SessionState>((set) => ({
  ...initialState(),
  setVerified: (info) => {
    sessionStore.setItem(USER_INFO_KEY, JSON.stringify(info));
    set({ loginState: LoginState.Verified, userInfo: info });
  },
  clearLocalLogin: () => {
    removeCookie(TOKEN_COOKIE);
    forgetFrameSession();
    sessionStore.removeItem(USER_INFO_KEY);
    // The spec clears local storage; the chosen language is a device preference, not login data, so it stays.
    const locale = localStore.getItem(LOCALE_STORAGE_KEY);
    localStore.clear();
    if (locale !== null) localStore.setItem(LOCALE_STORAGE_KEY, locale);
    set({ loginState: LoginState.LoggedOut, userInfo: null });
  },
}));

/** The userType every call carries (SPEC §3): the logged-in account's, a person before login. */
export const currentUserType = (): number => useSessionStore.getState().userInfo?.userType ?? UserType.Person;
