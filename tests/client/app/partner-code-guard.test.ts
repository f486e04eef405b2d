// Partner links: `/?fromPtCode=X#/` (the code in the page's query, before the hash) selects the partner
// platform; under a partner code a browser that is logged in gets its login back in a new tab (the
// login-state check still runs), while nobody is sent to our login page.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { loginInfo, loginInfoHandler, setToken } from '../fixtures/msw.ts';
import { freshClientEachTest } from '../fixtures/state.ts';
import { guardAt } from '../fixtures/render-app.tsx';

const guard = guardAt;

freshClientEachTest();
beforeEach(() => {
  sessionStorage.clear();
});
afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('partner code before the hash', () => {
  it('/?fromPtCode=ZHDB#/ selects ZHDB', async () => {
    window.history.replaceState(null, '', '/?fromPtCode=ZHDB#/');
    expect(await guard('/')).toBeNull();
    expect(usePlatformStore.getState().code).toBe('ZHDB');
    expect(sessionStorage.getItem('fromPtCode')).toBe('ZHDB');
  });

  it("the route's own query wins over the page's", async () => {
    window.history.replaceState(null, '', '/?fromPtCode=ZHDB#/?fromPtCode=ZYPT');
    await guard('/?fromPtCode=ZYPT');
    expect(usePlatformStore.getState().code).toBe('ZYPT');
  });
});

describe('a logged-in user under a partner code, in a new tab', () => {
  it('gets the login info (logged-in workspace), and is never sent to our login page', async () => {
    usePlatformStore.getState().setCode('ZHDB');
    setToken('t1');
    const calls = loginInfoHandler(loginInfo({ phone: '13812345678' }));
    expect(await guard('/manage/home')).toBeNull();
    expect(calls.length).toBe(1);
    expect(useSessionStore.getState().userInfo?.phone).toBe('13812345678');
  });

  it('an ended session: cleared locally, still no redirect to our login page', async () => {
    usePlatformStore.getState().setCode('ZYPT');
    setToken('t1');
    loginInfoHandler(null);
    expect(await guard('/manage/home')).toBeNull();
    expect(useSessionStore.getState().userInfo).toBeNull();
  });
});
