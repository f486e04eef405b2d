// Development register page: after "get code", a hint says where the code went (the development outbox),
// only on a loopback page and only when the outbox exists (it never does in production).
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { Route } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { isLoopbackHost, resetDevOutboxProbe } from '@/features/auth/dev-outbox.ts';
import RegisterPage from '@/features/auth/register-page.tsx';
import { CSIGN, ok, server } from '../fixtures/msw.ts';
import { freshClientEachTest } from '../fixtures/state.ts';
import { renderRoutes } from '../fixtures/render-screen.tsx';

const renderRegister = () =>
  renderRoutes('/registerPage', <Route path="/registerPage" element={<RegisterPage />} />);

freshClientEachTest({ locale: 'en-US' });
beforeEach(() => {
  resetDevOutboxProbe();
  server.use(http.post(`${CSIGN}/sendSmsCode`, () => ok({ expiresInSeconds: 300, resendAfterSeconds: 60 })));
});

describe('where the SMS code went (development)', () => {
  it('development (the outbox answers): a link to the outbox for that phone', async () => {
    expect(isLoopbackHost(window.location.hostname)).toBe(true);
    server.use(http.get('/v1/dev/outbox', () => HttpResponse.json({ code: 0, msg: 'success', data: [] })));
    renderRegister();
    await userEvent.type(screen.getByLabelText('Phone'), '13812345678');
    await userEvent.click(screen.getByRole('button', { name: 'Get code' }));
    const hint = await screen.findByTestId('dev-outbox-hint');
    expect(hint.textContent).toMatch(/development outbox/);
    expect(hint.querySelector('a')?.getAttribute('href')).toBe('/v1/dev/outbox.html?phone=13812345678');
  });

  it('production (no outbox): no hint', async () => {
    renderRegister();
    await userEvent.type(screen.getByLabelText('Phone'), '13812345678');
    await userEvent.click(screen.getByRole('button', { name: 'Get code' }));
    await screen.findByRole('button', { name: /Resend in 60 s$/ });
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByTestId('dev-outbox-hint')).toBeNull();
  });

  it('only loopback pages may show it', () => {
    for (const h of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'app.localhost'])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['www.example.com', '10.0.0.5', '192.168.1.2', 'localhost.evil.com'])
      expect(isLoopbackHost(h), h).toBe(false);
  });
});
