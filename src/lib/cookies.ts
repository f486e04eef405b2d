import Cookies from 'js-cookie';

/** SPEC §9: one day, SameSite=Lax, path '/'. */
const COOKIE_DEFAULTS = { expires: 1, sameSite: 'Lax', path: '/' } as const;

/** Attribute names a cookie may not be called (SPEC §5): writing one would corrupt the cookie string. */
const RESERVED_COOKIE_NAMES = ['expires', 'max-age', 'path', 'domain', 'secure', 'samesite'] as const;

type CookieOptions = { expires?: number | Date; path?: string; domain?: string; secure?: boolean };

/** Throws on an empty or reserved name (case-insensitive), so a bad name fails loudly instead of silently. */
function assertCookieName(name: string): void {
  if (!name?.trim()) throw new Error('Cookie name must not be empty');
  if ((RESERVED_COOKIE_NAMES as readonly string[]).includes(name.trim().toLowerCase())) {
    throw new Error(`Cookie name "${name}" is reserved`);
  }
}

export function setCookie(name: string, value: string, options: CookieOptions = {}): void {
  assertCookieName(name);
  Cookies.set(name, value, { ...COOKIE_DEFAULTS, ...options });
}

export function getCookie(name: string): string | undefined {
  assertCookieName(name);
  return Cookies.get(name);
}

export function removeCookie(name: string, options: Pick<CookieOptions, 'path' | 'domain'> = {}): void {
  assertCookieName(name);
  Cookies.remove(name, { path: COOKIE_DEFAULTS.path, ...options });
}
