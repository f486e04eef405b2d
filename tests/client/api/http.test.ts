import { keySuffixOf } from '#contract/transport.ts';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, ERROR_MESSAGE_MS, getHttp, post, RELOGIN_DELAY_MS } from '@/api/http.ts';
import { getSaleProductTypeList, userLogin } from '@/api/session.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { browser } from '@/lib/browser.ts';
import { setNotifier } from '@/lib/notify.ts';
import { USER_INFO_KEY, useSessionStore } from '@/session/session-store.ts';
import { CSIGN, fail, loginInfo, ok, server, setToken } from '../fixtures/msw.ts';

const shown: { text: string; ms: number }[] = [];
const scheduled: { fn: () => void; ms: number }[] = [];

beforeEach(() => {
  shown.length = 0;
  scheduled.length = 0;
  setNotifier({ error: (text, ms) => shown.push({ text, ms }), success: () => {} });
  vi.spyOn(browser, 'later').mockImplementation((fn, ms) => void scheduled.push({ fn, ms }));
  vi.spyOn(browser, 'reload').mockImplementation(() => {});
  vi.spyOn(browser, 'assign').mockImplementation(() => {});
  useI18nStore.getState().setLocale('en-US');
  useSessionStore.setState({ userInfo: null, loginState: 0 });
});

function echoPost(name: string) {
  const seen: { body: unknown; headers: Headers }[] = [];
  server.use(
    http.post(`${CSIGN}/${name}`, async ({ request }) => {
      seen.push({ body: await request.json(), headers: request.headers });
      return ok('fine');
    }),
  );
  return seen;
}

function loggedIn() {
  setToken('tok-123');
  sessionStorage.setItem(USER_INFO_KEY, JSON.stringify(loginInfo()));
  localStorage.setItem('draft', 'x');
  useSessionStore.getState().setVerified(loginInfo());
}

describe('transport rules (SPEC §7)', () => {
  it('adds the session userType to a POST body that has none, and keeps one the caller set', async () => {
    const seen = echoPost('echo');
    await post(`${CSIGN}/echo`, { a: 1 });
    useSessionStore.getState().setVerified(loginInfo({ userType: 1 }));
    await post(`${CSIGN}/echo`, {});
    await post(`${CSIGN}/echo`, { userType: 0 });
    await post(`${CSIGN}/echo`);
    expect(seen.map((s) => s.body)).toEqual([
      { a: 1, userType: 0 },
      { userType: 1 },
      { userType: 0 },
      { userType: 1 },
    ]);
  });

  it('sends the token cookie as the XSRF header and its keySuffix, and nothing without a token', async () => {
    const seen = echoPost('echo');
    await post(`${CSIGN}/echo`, {});
    setToken('tok-123');
    await post(`${CSIGN}/echo`, {});
    expect(seen[0].headers.get('x-xsrf-token')).toBeNull();
    expect(seen[0].headers.get('keysuffix')).toBeNull();
    expect(seen[1].headers.get('x-xsrf-token')).toBe('tok-123');
    expect(seen[1].headers.get('keysuffix')).toBe(keySuffixOf('tok-123'));
  });

  it('asks the server for messages in the language the user chose', async () => {
    const seen = echoPost('echo');
    await post(`${CSIGN}/echo`, {});
    useI18nStore.getState().setLocale('zh-CN');
    await post(`${CSIGN}/echo`, {});
    expect(seen.map((s) => s.headers.get('accept-language'))).toEqual(['en-US', 'zh-CN']);
  });

  it('puts a fresh random ts on every GET', async () => {
    const ts: (string | null)[] = [];
    server.use(
      http.get('/v1/files/x', ({ request }) => {
        ts.push(new URL(request.url).searchParams.get('ts'));
        return HttpResponse.text('bytes');
      }),
    );
    const client = await getHttp();
    await client.get('/v1/files/x');
    await client.get('/v1/files/x', { params: { a: 1 } });
    expect(ts[0]).toMatch(/\S{6,}/);
    expect(ts[1]).toMatch(/\S{6,}/);
    expect(ts[0]).not.toBe(ts[1]);
  });

  it('sends credentials, waits 180000 ms and uses the page origin by default', async () => {
    const client = await getHttp();
    expect(client.defaults.withCredentials).toBe(true);
    expect(client.defaults.timeout).toBe(180_000);
    expect(client.defaults.baseURL).toBe('');
  });

  it('reads {code,msg,data}: code 0 gives data, another code an unhandled ApiError with the msg', async () => {
    server.use(
      http.post(`${CSIGN}/getSaleProductTypeList`, () =>
        ok([{ code: '00', name: '管理员', nameEn: 'Administrator' }]),
      ),
    );
    await expect(getSaleProductTypeList()).resolves.toEqual([
      { code: '00', name: '管理员', nameEn: 'Administrator' },
    ]);
    server.use(http.post(`${CSIGN}/userLogin`, () => fail(1202, 'Phone or password is wrong')));
    const error = await userLogin({ phone: '13800000000', password: 'x' }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 1202, message: 'Phone or password is wrong', handled: false });
    expect(shown).toEqual([]);
  });
});

describe('error catalogue (SPEC §8)', () => {
  it.each([2000, 4000])(
    'code %i: shows msg for 2000 ms and clears the local login, no reload',
    async (code) => {
      loggedIn();
      localStorage.setItem('locale', 'en-US');
      server.use(http.post(`${CSIGN}/echo`, () => fail(code, `server says ${code}`)));
      const error = await post(`${CSIGN}/echo`, {}).catch((e) => e);
      expect(error).toMatchObject({ code, handled: true });
      expect(shown).toEqual([{ text: `server says ${code}`, ms: ERROR_MESSAGE_MS }]);
      expect(ERROR_MESSAGE_MS).toBe(2000);
      expect(document.cookie).not.toContain('token=');
      expect(sessionStorage.getItem(USER_INFO_KEY)).toBeNull();
      expect(localStorage.getItem('draft')).toBeNull();
      expect(localStorage.getItem('locale')).toBe('en-US');
      expect(useSessionStore.getState().loginState).toBe(0);
      expect(scheduled).toEqual([]);
    },
  );

  it('code 3000: clears the login, then re-attempts login by reloading after 1500 ms', async () => {
    loggedIn();
    server.use(http.post(`${CSIGN}/echo`, () => fail(3000, 'logged in elsewhere')));
    await post(`${CSIGN}/echo`, {}).catch(() => {});
    expect(shown).toEqual([{ text: 'logged in elsewhere', ms: 2000 }]);
    expect(document.cookie).not.toContain('token=');
    expect(scheduled.map((s) => s.ms)).toEqual([RELOGIN_DELAY_MS]);
    expect(RELOGIN_DELAY_MS).toBe(1500);
    expect(browser.reload).not.toHaveBeenCalled();
    scheduled[0].fn();
    expect(browser.reload).toHaveBeenCalledOnce();
  });

  it('HTTP 601: "login timed out" in the current language, then the root after 1500 ms', async () => {
    server.use(http.post(`${CSIGN}/echo`, () => new HttpResponse(null, { status: 601 })));
    await expect(post(`${CSIGN}/echo`, {})).rejects.toMatchObject({ status: 601, handled: true });
    expect(shown).toEqual([{ text: 'Login timed out, please log in again', ms: 2000 }]);
    expect(scheduled.map((s) => s.ms)).toEqual([1500]);
    scheduled[0].fn();
    expect(browser.assign).toHaveBeenCalledWith(`${window.location.origin}${window.location.pathname}#/`);

    useI18nStore.getState().setLocale('zh-CN');
    await post(`${CSIGN}/echo`, {}).catch(() => {});
    expect(shown[1].text).toBe('登录超时，请重新登录');
  });

  it('HTTP 602: "user has no permission", in both languages', async () => {
    server.use(http.post(`${CSIGN}/echo`, () => new HttpResponse(null, { status: 602 })));
    await post(`${CSIGN}/echo`, {}).catch(() => {});
    useI18nStore.getState().setLocale('zh-CN');
    await post(`${CSIGN}/echo`, {}).catch(() => {});
    expect(shown.map((s) => s.text)).toEqual(['User has no permission', '用户没有权限']);
    expect(scheduled).toEqual([]);
  });

  it('other HTTP errors: "connection error, please try again later"', async () => {
    server.use(http.post(`${CSIGN}/echo`, () => new HttpResponse('boom', { status: 500 })));
    await post(`${CSIGN}/echo`, {}).catch(() => {});
    useI18nStore.getState().setLocale('zh-CN');
    server.use(http.post(`${CSIGN}/echo`, () => new HttpResponse(null, { status: 404 })));
    await post(`${CSIGN}/echo`, {}).catch(() => {});
    expect(shown).toEqual([
      { text: 'Connection error, please try again later', ms: 2000 },
      { text: '连接错误，请稍后重试', ms: 2000 },
    ]);
  });

  it('no response: "failed to connect to the server", and the login stays', async () => {
    loggedIn();
    server.use(http.post(`${CSIGN}/echo`, () => HttpResponse.error()));
    await expect(post(`${CSIGN}/echo`, {})).rejects.toMatchObject({ handled: true, status: undefined });
    useI18nStore.getState().setLocale('zh-CN');
    await post(`${CSIGN}/echo`, {}).catch(() => {});
    expect(shown.map((s) => s.text)).toEqual(['Failed to connect to the server', '连接服务器失败']);
    expect(document.cookie).toContain('token=tok-123');
  });
});
