import { beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '@/lib/browser.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { USER_INFO_KEY, useSessionStore } from '@/session/session-store.ts';
import { loginInfo, loginInfoHandler, setToken } from '../fixtures/msw.ts';
import { freshClientEachTest } from '../fixtures/state.ts';
import { guardAt } from '../fixtures/render-app.tsx';

const guard = guardAt;

freshClientEachTest();
beforeEach(() => {
  sessionStorage.clear();
});

describe('route guard (SPEC §2)', () => {
  it('keeps the fromPtCode of the query in session storage, default BCP_STFWPT', async () => {
    await guard('/signList');
    expect(usePlatformStore.getState().code).toBe('BCP_STFWPT');
    await guard('/signList?fromPtCode=ZHDB');
    expect(sessionStorage.getItem('fromPtCode')).toBe('ZHDB');
    expect(usePlatformStore.getState().entry.fromPtCode).toBe('ZHDB');
    await guard('/signList');
    expect(usePlatformStore.getState().code).toBe('ZHDB');
  });

  it('sends a visitor without a token from a protected route to /loginPage with next and nextType=route', async () => {
    const target = await guard('/manage/home?tab=2');
    expect(target).toBe('/loginPage?next=%2Fmanage%2Fhome%3Ftab%3D2&nextType=route');
    expect(await guard('/manage/account/stamp/addStamp')).toMatch(
      /^\/loginPage\?next=%2Fmanage%2Faccount%2Fstamp%2FaddStamp/,
    );
    expect(await guard('/foundCompany')).toMatch(/^\/loginPage\?/);
  });

  it('sends the mobile scope to /mobileLogin instead', async () => {
    expect(await guard('/mobile/openAccount/basic')).toBe(
      '/mobileLogin?next=%2Fmobile%2FopenAccount%2Fbasic&nextType=route',
    );
    expect(await guard('/realName/result')).toMatch(/^\/mobileLogin\?/);
  });

  it('lets a visitor without a token through public routes, /manage/startup included', async () => {
    for (const path of [
      '/',
      '/verify',
      '/h5/v1/signing_room',
      '/manage/startup',
      '/registerPage',
      '/mobileLogin',
      '/nowhere',
    ]) {
      expect(await guard(path)).toBeNull();
    }
  });

  it('with a token, asks getEsignLoginInfo; data means verified (state 11) with the info cached', async () => {
    setToken('t1');
    const calls = loginInfoHandler(loginInfo({ phone: '13900001111' }));
    expect(await guard('/manage/home')).toBeNull();
    expect(calls).toEqual([{ userType: 0 }]);
    expect(useSessionStore.getState().loginState).toBe(11);
    expect(JSON.parse(sessionStorage.getItem(USER_INFO_KEY)!).phone).toBe('13900001111');
  });

  it('with a token the server no longer knows: token, cached info and local storage are cleared', async () => {
    setToken('stale');
    sessionStorage.setItem(USER_INFO_KEY, '{"phone":"1"}');
    localStorage.setItem('something', '1');
    loginInfoHandler(null);
    expect(await guard('/signList')).toBeNull();
    expect(document.cookie).not.toContain('token=');
    expect(sessionStorage.getItem(USER_INFO_KEY)).toBeNull();
    expect(localStorage.getItem('something')).toBeNull();

    setToken('stale');
    expect(await guard('/manage/home')).toBe('/loginPage?next=%2Fmanage%2Fhome&nextType=route');
  });

  it('does not apply on the login page: no check, no redirect', async () => {
    setToken('t1');
    const calls = loginInfoHandler(loginInfo());
    expect(await guard('/loginPage?next=%2Fmanage&nextType=route')).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('does not apply inside a frame', async () => {
    vi.spyOn(browser, 'isFramed').mockReturnValue(true);
    expect(await guard('/manage/home')).toBeNull();
  });

  it('does not apply for a partner platform code', async () => {
    expect(await guard('/manage/home?fromPtCode=ZYPT')).toBeNull();
    expect(await guard('/manage/home')).toBeNull(); // the code stays for the session
    expect(await guard('/manage/home?fromPtCode=BCP_STFWPT')).toMatch(/^\/loginPage\?/);
  });

  it('keeps the login when the check fails for network reasons', async () => {
    setToken('t1');
    const { http, HttpResponse } = await import('msw');
    const { server } = await import('../fixtures/msw.ts');
    server.use(http.post('/v1/jinshang/login/api/csign/getEsignLoginInfo', () => HttpResponse.error()));
    expect(await guard('/manage/home')).toBeNull();
    expect(document.cookie).toContain('token=t1');
  });
});
