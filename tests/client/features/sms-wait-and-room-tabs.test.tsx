// Two rough edges of the phone code: "get code" during the resend wait says how many seconds are left
// (the server's retryAfterSeconds starts the button's countdown), and a signing room opened in one tab is
// open in a new tab of the same browser session (no second phone code).
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { HttpResponse, http } from 'msw';
import { Route } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { forgetRoomsInMemory, roomTokenFor, saveRoomLogin } from '@/api/flow.ts';
import RegisterPage from '@/features/auth/register-page.tsx';
import { SmsCodeInput } from '@/features/signing-room/parts.tsx';
import { CSIGN, server } from '../fixtures/msw.ts';
import { freshClientEachTest } from '../fixtures/state.ts';
import { renderRoutes } from '../fixtures/render-screen.tsx';

const waitRefusal = (seconds: number) =>
  HttpResponse.json({
    code: 1005,
    msg: `please wait ${seconds} s before requesting another code`,
    data: { retryAfterSeconds: seconds },
  });

const { errors } = freshClientEachTest({ locale: 'en-US' });

describe('get code during the resend wait', () => {
  it('the register page counts down the seconds the server says are left', async () => {
    server.use(http.post(`${CSIGN}/sendSmsCode`, () => waitRefusal(42)));
    renderRoutes('/registerPage', <Route path="/registerPage" element={<RegisterPage />} />);
    await userEvent.type(screen.getByLabelText('Phone'), '13812345678');
    await userEvent.click(screen.getByRole('button', { name: 'Get code' }));
    const waiting = await screen.findByRole('button', { name: /Resend in 42 s$/ });
    expect((waiting as HTMLButtonElement).disabled).toBe(true);
    expect(errors.join(' ')).toMatch(/42 s/);
  });

  it('the signing room code field counts down too', async () => {
    render(
      <SmsCodeInput
        value=""
        onChange={() => {}}
        send={async () => {
          const { ApiError } = await import('@/api/http.ts');
          throw new ApiError(1005, 'please wait 17 s', false, undefined, { retryAfterSeconds: 17 });
        }}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Get code' }));
    const waiting = await screen.findByRole('button', { name: /Resend in 17s/ });
    expect((waiting as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('a room login serves every tab of the browser session', () => {
  it('a new tab (empty session storage) finds the room token; an expired one is not used', () => {
    const login = {
      roomToken: 'rt-123456789',
      flowId: 'f1',
      partyId: 'p-tabs',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    };
    saveRoomLogin(login as Parameters<typeof saveRoomLogin>[0]);
    expect(roomTokenFor('p-tabs')).toBe('rt-123456789');
    // What a new tab starts with: nothing in this page's memory or session storage.
    forgetRoomsInMemory();
    sessionStorage.clear();
    expect(roomTokenFor('p-tabs')).toBe('rt-123456789');
    expect(roomTokenFor('p-tabs', Date.now() + 120_000)).toBeNull();
    // A session cookie: no expiry date, so it ends with the browser session.
    expect(document.cookie).toContain('esignRoom_p-tabs=');
    Cookies.remove('esignRoom_p-tabs', { path: '/' });
    expect(roomTokenFor('p-tabs')).toBeNull();
  });
});
