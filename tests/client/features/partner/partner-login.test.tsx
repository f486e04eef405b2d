import { render, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AntdProvider } from '@/app/antd-provider.tsx';
import { Providers } from '@/app/providers.tsx';
import { runRouteGuard } from '@/app/route-guard.ts';
import { accessOf } from '@/app/routes.tsx';
import LoginPage from '@/features/auth/login-page.tsx';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { CSIGN, JINSHANG, fail, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { freshClientEachTest } from '../../fixtures/state.ts';

const guard = (pathAndQuery: string) => {
  const url = new URL(pathAndQuery, 'http://localhost');
  return runRouteGuard(url, accessOf(url.pathname));
};

/** Answers loginEsign and records the jsToken each call carried in its query. */
function loginEsignHandler(answer: () => Response) {
  const tokens: (string | null)[] = [];
  server.use(
    http.post(`${JINSHANG}/loginEsign`, ({ request }) => {
      tokens.push(new URL(request.url).searchParams.get('jsToken'));
      return answer();
    }),
  );
  return tokens;
}

const { errors } = freshClientEachTest({ locale: 'en-US' });

describe('a partner link with jsToken (route guard)', () => {
  it('on the login page: logs in with the token, keeps the platform, continues to next', async () => {
    const tokens = loginEsignHandler(() => ok(loginInfo({ phone: '13900001111' })));
    const target = await guard(
      '/loginPage?fromPtCode=ZHDB&jsToken=abc.def.ghi&next=%2Fmanage%2Fhome&nextType=route',
    );
    expect(tokens).toEqual(['abc.def.ghi']);
    expect(target).toBe('/manage/home');
    expect(useSessionStore.getState().userInfo?.phone).toBe('13900001111');
    expect(useSessionStore.getState().loginState).toBe(11);
    expect(usePlatformStore.getState().entry.fromPtCode).toBe('ZHDB');
  });

  it('on the login page without next: continues to the workspace', async () => {
    loginEsignHandler(() => ok(loginInfo()));
    expect(await guard('/loginPage?fromPtCode=ZYPT&jsToken=t1')).toBe('/manage');
  });

  it('on any other route: stays there, with jsToken removed from the URL and other parameters kept', async () => {
    loginEsignHandler(() => ok(loginInfo()));
    expect(await guard('/manage/home?jsToken=t2&tab=2')).toBe('/manage/home?tab=2');
  });

  it('a refused token shows the server message, logs nobody in and drops the token', async () => {
    loginEsignHandler(() => fail(1803, 'the partner login token has expired'));
    const target = await guard('/loginPage?fromPtCode=ZHDB&jsToken=old');
    expect(target).toBe('/loginPage?fromPtCode=ZHDB');
    expect(errors).toEqual(['the partner login token has expired']);
    expect(useSessionStore.getState().userInfo).toBeNull();
  });

  it('without jsToken the guard makes no partner call', async () => {
    // An unmocked loginEsign would fail this test (msw: unhandled requests are errors).
    expect(await guard('/loginPage?fromPtCode=ZHDB')).toBeNull();
  });
});

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

const renderLogin = (path: string) =>
  render(
    <Providers>
      <AntdProvider>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/loginPage" element={<LoginPage />} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </AntdProvider>
    </Providers>,
  );

describe('login page and the central user centre (SPEC §6)', () => {
  for (const loginType of [1, 4]) {
    it(`isHyCenterLogin ${loginType}: converts the login with loginAsHy and continues to next`, async () => {
      let conversions = 0;
      server.use(
        http.post(`${CSIGN}/isHyCenterLogin`, () => ok(loginType)),
        http.post(`${CSIGN}/loginAsHy`, () => {
          conversions += 1;
          return ok(loginInfo({ phone: '13700002222' }));
        }),
      );
      renderLogin('/loginPage?next=%2Fmanage%2Faccount&nextType=route');
      await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/manage/account'));
      expect(conversions).toBe(1);
      expect(useSessionStore.getState().userInfo?.phone).toBe('13700002222');
    });
  }

  it('isHyCenterLogin 0: the login form stays and loginAsHy is not called', async () => {
    let asked = 0;
    server.use(
      http.post(`${CSIGN}/isHyCenterLogin`, () => {
        asked += 1;
        return HttpResponse.json({ code: 0, msg: 'ok', data: 0 });
      }),
    );
    renderLogin('/loginPage');
    await waitFor(() => expect(asked).toBe(1));
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(useSessionStore.getState().userInfo).toBeNull();
  });
});
