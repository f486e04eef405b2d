import Cookies from 'js-cookie';
import { describe, expect, it, vi } from 'vitest';
import { getCookie, removeCookie, setCookie } from '@/lib/cookies.ts';

describe('cookies (SPEC §5, §9)', () => {
  it('writes with a 1-day lifetime, SameSite=Lax and path /', () => {
    const spy = vi.spyOn(Cookies, 'set');
    setCookie('theme', 'red');
    expect(spy).toHaveBeenCalledWith('theme', 'red', { expires: 1, sameSite: 'Lax', path: '/' });
    expect(getCookie('theme')).toBe('red');
  });

  it('lets a caller change the lifetime but keeps the other defaults', () => {
    const spy = vi.spyOn(Cookies, 'set');
    setCookie('a', 'b', { expires: 7 });
    expect(spy).toHaveBeenCalledWith('a', 'b', { expires: 7, sameSite: 'Lax', path: '/' });
  });

  it('removes a cookie on path /', () => {
    setCookie('gone', '1');
    removeCookie('gone');
    expect(getCookie('gone')).toBeUndefined();
  });

  it.each(['', '  ', 'expires', 'max-age', 'path', 'domain', 'secure', 'SameSite', 'EXPIRES'])(
    'rejects the name %j',
    (name) => {
      expect(() => setCookie(name, 'x')).toThrow();
      expect(() => getCookie(name)).toThrow();
      expect(document.cookie).toBe('');
    },
  );
});
