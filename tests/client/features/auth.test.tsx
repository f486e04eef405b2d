import { act, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { Route, useLocation } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import LoginPage from '@/features/auth/login-page.tsx';
import { nextTarget } from '@/features/auth/next-target.ts';
import PasswordPage from '@/features/auth/password-page.tsx';
import RegisterPage from '@/features/auth/register-page.tsx';
import { SMS_RESEND_SECONDS, useCountdown } from '@/hooks/use-countdown.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { CSIGN, fail, loginInfo, ok, server } from '../fixtures/msw.ts';
import { freshClientEachTest } from '../fixtures/state.ts';
import { renderRoutes } from '../fixtures/render-screen.tsx';

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

function renderAt(path: string, element: React.ReactNode, route: string) {
  return renderRoutes(
    path,
    <>
      <Route path={route} element={element} />
      <Route path="*" element={<Where />} />
    </>,
  );
}

const { errors } = freshClientEachTest({ locale: 'en-US' });

describe('login page', () => {
  it('finds its fields by label and checks them before sending', async () => {
    renderAt('/loginPage', <LoginPage />, '/loginPage');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByText('Please enter your phone number')).toBeTruthy();
    expect(screen.getByText('Please enter your password')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Phone'), '12345');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByText('Enter an 11-digit mobile number starting with 1')).toBeTruthy();
    expect(screen.getByLabelText('Phone').getAttribute('aria-invalid')).toBe('true');
  });

  it('shows the typed password on request and hides it again', async () => {
    renderAt('/loginPage', <LoginPage />, '/loginPage');
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    await userEvent.type(password, 'Secret123');
    expect(password.type).toBe('password');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.type).toBe('text');
    expect(password.value).toBe('Secret123');
    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password.type).toBe('password');
  });

  it('logs in, caches the login info and goes to the workspace when there is no next route', async () => {
    let body: unknown;
    server.use(
      http.post(`${CSIGN}/userLogin`, async ({ request }) => {
        body = await request.json();
        return ok(loginInfo({ phone: '13812345678' }));
      }),
    );
    renderAt('/loginPage', <LoginPage />, '/loginPage');
    await userEvent.type(screen.getByLabelText('Phone'), '13812345678');
    await userEvent.type(screen.getByLabelText('Password'), 'pw12345678');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByTestId('where')).textContent).toBe('/manage');
    expect(body).toEqual({ phone: '13812345678', password: 'pw12345678', userType: 0 });
    expect(useSessionStore.getState().loginState).toBe(11);
    expect(sessionStorage.getItem('userInfo')).toContain('13812345678');
  });

  it('shows the server message for wrong credentials and stays', async () => {
    server.use(http.post(`${CSIGN}/userLogin`, () => fail(1202, 'Phone or password is wrong')));
    renderAt('/loginPage', <LoginPage />, '/loginPage');
    await userEvent.type(screen.getByLabelText('Phone'), '13812345678');
    await userEvent.type(screen.getByLabelText('Password'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(errors).toEqual(['Phone or password is wrong']));
    expect(screen.queryByTestId('where')).toBeNull();
  });

  it('follows next only for nextType=route and only inside the app', () => {
    expect(nextTarget('?next=%2Fmanage%2Fhome&nextType=route')).toBe('/manage/home');
    expect(nextTarget('?next=%2Fmanage%2Fhome')).toBe('/manage');
    expect(nextTarget('?next=%2F%2Fevil.example.com&nextType=route')).toBe('/manage');
    expect(nextTarget('?next=https%3A%2F%2Fevil.example.com&nextType=route')).toBe('/manage');
  });

  it('is in Chinese with Chinese labels and a language switch', async () => {
    renderAt('/loginPage', <LoginPage />, '/loginPage');
    await userEvent.click(screen.getByRole('button', { name: '中文' }));
    expect(screen.getByLabelText('手机号')).toBeTruthy();
    expect(screen.getByLabelText('密码')).toBeTruthy();
    expect(screen.getByRole('button', { name: '登录' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '注册' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '忘记密码' })).toBeTruthy();
  });
});

describe('register page', () => {
  it('sends a code for the phone and counts down 60 s before another', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/sendSmsCode`, async ({ request }) => {
        sent.push(await request.json());
        return ok({ expiresInSeconds: 300, resendAfterSeconds: 60 });
      }),
    );
    renderAt('/registerPage', <RegisterPage />, '/registerPage');
    await userEvent.click(screen.getByRole('button', { name: 'Get code' }));
    expect(await screen.findByText('Please enter your phone number')).toBeTruthy();
    expect(sent).toEqual([]);

    await userEvent.type(screen.getByLabelText('Phone'), '13812345678');
    await userEvent.click(screen.getByRole('button', { name: 'Get code' }));
    // Under jsdom antd's loading icon never finishes its exit animation, so it stays in the name.
    const waiting = await screen.findByRole('button', { name: /Resend in 60 s$/ });
    expect(sent).toEqual([{ phone: '13812345678', purpose: 'register', userType: 0 }]);
    expect((waiting as HTMLButtonElement).disabled).toBe(true);
    expect(await screen.findByRole('button', { name: /Resend in 59 s$/ }, { timeout: 2500 })).toBeTruthy();
  });

  it('the countdown ticks each second from 60 and frees the button at 0', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useCountdown());
    expect(SMS_RESEND_SECONDS).toBe(60);
    act(() => result.current.start());
    expect(result.current.seconds).toBe(60);
    for (let i = 0; i < 59; i++) act(() => vi.advanceTimersByTime(1000));
    expect(result.current.seconds).toBe(1);
    act(() => vi.advanceTimersByTime(1000));
    expect(result.current.seconds).toBe(0);
    act(() => vi.advanceTimersByTime(5000));
    expect(result.current.seconds).toBe(0);
  });

  it('registers with phone, code and a password typed twice, then enters the workspace', async () => {
    let body: unknown;
    server.use(
      http.post(`${CSIGN}/userRegister`, async ({ request }) => {
        body = await request.json();
        return ok(loginInfo());
      }),
    );
    renderAt('/registerPage', <RegisterPage />, '/registerPage');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Phone'), '13812345678');
    await user.type(screen.getByLabelText('SMS code'), '123456');
    await user.type(screen.getByLabelText('Password'), 'abc12345');
    await user.type(screen.getByLabelText('Confirm password'), 'abc12346');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('The two passwords do not match')).toBeTruthy();
    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('Confirm password'), 'abc12345');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect((await screen.findByTestId('where')).textContent).toBe('/manage');
    expect(body).toEqual({ phone: '13812345678', smsCode: '123456', password: 'abc12345', userType: 0 });
  });

  it('a proven phone that already has an account is told so, with links to log in and reset', async () => {
    const taken =
      'this phone number already has an account: please log in (or reset the password if you forgot it)';
    server.use(http.post(`${CSIGN}/userRegister`, () => fail(1203, taken)));
    renderAt('/registerPage', <RegisterPage />, '/registerPage');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Phone'), '13812345678');
    await user.type(screen.getByLabelText('SMS code'), '123456');
    await user.type(screen.getByLabelText('Password'), 'abc12345');
    await user.type(screen.getByLabelText('Confirm password'), 'abc12345');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(taken);
    expect(errors).toEqual([]);
    await user.click(within(alert).getByRole('link', { name: 'Forgot password' }));
    expect((await screen.findByTestId('where')).textContent).toBe('/passwordPage');
  });

  it('on a phone (375 px) lands the new person on /mobileHome, not the desktop workspace', async () => {
    server.use(http.post(`${CSIGN}/userRegister`, () => ok(loginInfo())));
    const width = window.innerWidth;
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 375 });
    try {
      renderAt('/registerPage', <RegisterPage />, '/registerPage');
      const user = userEvent.setup();
      await user.type(screen.getByLabelText('Phone'), '13812345678');
      await user.type(screen.getByLabelText('SMS code'), '123456');
      await user.type(screen.getByLabelText('Password'), 'abc12345');
      await user.type(screen.getByLabelText('Confirm password'), 'abc12345');
      await user.click(screen.getByRole('button', { name: 'Register' }));
      expect((await screen.findByTestId('where')).textContent).toBe('/mobileHome');
    } finally {
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
    }
  });

  it('rejects a weak password before sending', async () => {
    renderAt('/registerPage', <RegisterPage />, '/registerPage');
    await userEvent.type(screen.getByLabelText('Password'), 'abcdefgh');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('8 to 64 characters with at least one letter and one digit')).toBeTruthy();
  });

  it.each([
    ['BCP_STFWPT', true],
    ['ZHDB', false],
    ['ZYPT', false],
  ])('%s: create-company button shown = %s', (code, isShown) => {
    usePlatformStore.getState().setCode(code);
    renderAt('/registerPage', <RegisterPage />, '/registerPage');
    expect(Boolean(screen.queryByRole('button', { name: 'Create a company' }))).toBe(isShown);
    expect(Boolean(screen.queryByRole('link', { name: 'Log in' }))).toBe(isShown);
  });
});

describe('password page', () => {
  it('sets a new password with an SMS code sent for resetPassword', async () => {
    const calls: Record<string, unknown>[] = [];
    server.use(
      http.post(`${CSIGN}/sendSmsCode`, async ({ request }) => {
        calls.push((await request.json()) as Record<string, unknown>);
        return ok({ expiresInSeconds: 300, resendAfterSeconds: 60 });
      }),
      http.post(`${CSIGN}/resetPassword`, async ({ request }) => {
        calls.push((await request.json()) as Record<string, unknown>);
        return ok(null);
      }),
    );
    renderAt('/passwordPage', <PasswordPage />, '/passwordPage');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Phone'), '13812345678');
    await user.click(screen.getByRole('button', { name: 'Get code' }));
    await user.type(screen.getByLabelText('SMS code'), '654321');
    await user.type(screen.getByLabelText('New password'), 'newpass99');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Password changed. Please log in with the new password.')).toBeTruthy();
    expect(calls).toEqual([
      { phone: '13812345678', purpose: 'resetPassword', userType: 0 },
      { phone: '13812345678', smsCode: '654321', newPassword: 'newpass99', userType: 0 },
    ]);
    expect(screen.getByRole('link', { name: 'Back to log in' })).toBeTruthy();
  });

  it('a proven phone without an account is told so, with a link to register', async () => {
    server.use(
      http.post(`${CSIGN}/resetPassword`, () =>
        fail(1101, 'this phone number has no account yet: please register first'),
      ),
    );
    renderAt('/passwordPage', <PasswordPage />, '/passwordPage');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Phone'), '13812345678');
    await user.type(screen.getByLabelText('SMS code'), '654321');
    await user.type(screen.getByLabelText('New password'), 'newpass99');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('no account yet');
    await user.click(within(alert).getByRole('link', { name: 'Register' }));
    expect((await screen.findByTestId('where')).textContent).toBe('/registerPage');
  });
});
