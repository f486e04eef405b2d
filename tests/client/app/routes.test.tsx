import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths.ts';
import { CSIGN, loginInfo, loginInfoHandler, ok, server, setToken } from '../fixtures/msw.ts';
import { renderApp } from '../fixtures/render-app.tsx';
import { freshClientEachTest } from '../fixtures/state.ts';

const atPath = async (router: ReturnType<typeof renderApp>['router'], path: string) =>
  waitFor(() => expect(router.state.location.pathname).toBe(path));

freshClientEachTest({ locale: 'en-US' });

describe('route table (SPEC §2)', () => {
  it.each([
    ['/h5', paths.h5SigningRoom],
    ['/h5/v1', paths.h5SigningRoom],
    ['/pc', paths.pcSigningRoom],
    ['/pc/v1', paths.pcSigningRoom],
    ['/manage', paths.manageStartup],
  ])('redirects %s to %s', async (from, to) => {
    const { router, container } = renderApp(from);
    await atPath(router, to);
    // The target screen renders (it shows a <main>).
    await waitFor(() => expect(container.querySelector('main')).not.toBeNull());
  });

  it('redirects /manage/account to accountInfo when logged in', async () => {
    setToken('t1');
    loginInfoHandler(loginInfo());
    const { router } = renderApp('/manage/account');
    await atPath(router, paths.accountInfo);
  });

  it('shows a not-found page for an unknown route', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('There is no page at /no/such/page.')).toBeTruthy();
  });

  it('sends a protected route without login to the login page, and back after logging in', async () => {
    const { router } = renderApp('/manage/home/fileUpload?id=7');
    await atPath(router, paths.loginPage);
    expect(router.state.location.search).toBe('?next=%2Fmanage%2Fhome%2FfileUpload%3Fid%3D7&nextType=route');

    server.use(
      http.post(`${CSIGN}/userLogin`, () => {
        setToken('new-token');
        return ok(loginInfo());
      }),
    );
    loginInfoHandler(loginInfo());
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Phone'), '13812345678');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await atPath(router, paths.manageFileUpload);
    expect(router.state.location.search).toBe('?id=7');
  });
});
