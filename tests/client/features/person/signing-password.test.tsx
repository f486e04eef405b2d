import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

const details = {
  name: '李四',
  idNumberMasked: '110105********1234',
  phoneMasked: '138****5678',
  verifiedAt: '2026-03-01T08:00:00.000Z',
  faceVerifiedAt: null,
  agreementVersion: null,
  agreementAcceptedAt: null,
  certificate: null,
};

freshClientEachTest({ token: 't1', loginInfo: loginInfo({ phone: '13812345678', name: '李四' }) });

describe('signing password on /personalDetails', () => {
  it('not set: a code to the own phone, both entries must agree, then it says when it was set (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    let status = { isSet: false, updatedAt: null as string | null, lockedUntil: null as string | null };
    const codes: unknown[] = [];
    const saved: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/getPersonalDetails`, () => ok(details)),
      http.post(`${CSIGN}/getPersonCaCert`, () => ok(null)),
      http.post(`${CSIGN}/getNoticeEmail`, () => ok({ email: null, lang: 'zh', isMailConfigured: false })),
      http.post(`${CSIGN}/getSigningPassword`, () => ok(status)),
      http.post(`${CSIGN}/sendSmsCode`, async ({ request }) => {
        codes.push(await request.json());
        return ok({ expiresInSeconds: 300, resendAfterSeconds: 60 });
      }),
      http.post(`${CSIGN}/setSigningPassword`, async ({ request }) => {
        saved.push(await request.json());
        status = { isSet: true, updatedAt: '2026-11-28T10:00:00.000Z', lockedUntil: null };
        return ok({ updatedAt: status.updatedAt });
      }),
    );
    renderApp('/personalDetails');
    const card = await screen.findByTestId('signing-password', {}, { timeout: 15_000 });
    expect(within(card).getByRole('status').textContent).toBe('Not set yet.');
    await userEvent.click(within(card).getByRole('button', { name: 'Set a signing password' }));
    expect(within(card).getByText('The code goes to 138****5678.')).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'Get code' }));
    await waitFor(() =>
      expect(codes).toEqual([{ phone: '13812345678', purpose: 'signingPassword', userType: 0 }]),
    );
    expect(await within(card).findByRole('button', { name: /Again in \d+ s/ })).toHaveProperty(
      'disabled',
      true,
    );

    await userEvent.type(within(card).getByLabelText('SMS code'), '123456');
    await userEvent.type(within(card).getByLabelText('New signing password'), 'pass-1234');
    await userEvent.type(within(card).getByLabelText('Repeat the new signing password'), 'pass-9999');
    await userEvent.click(within(card).getByRole('button', { name: 'Save' }));
    expect(within(card).getByRole('alert').textContent).toBe('The two passwords differ');
    expect(saved).toEqual([]);

    const confirm = within(card).getByLabelText('Repeat the new signing password');
    await userEvent.clear(confirm);
    await userEvent.type(confirm, 'pass-1234');
    await userEvent.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toEqual([{ smsCode: '123456', password: 'pass-1234', userType: 0 }]));
    await waitFor(() => expect(within(card).getByRole('status').textContent).toMatch(/^Set on .*2026/));
    expect(within(card).getByRole('button', { name: 'Change the signing password' })).toBeTruthy();
  }, 40_000);

  it('locked after wrong attempts: says until when (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    server.use(
      http.post(`${CSIGN}/getPersonalDetails`, () => ok(details)),
      http.post(`${CSIGN}/getPersonCaCert`, () => ok(null)),
      http.post(`${CSIGN}/getNoticeEmail`, () => ok({ email: null, lang: 'zh', isMailConfigured: false })),
      http.post(`${CSIGN}/getSigningPassword`, () =>
        ok({ isSet: true, updatedAt: '2026-11-01T08:00:00.000Z', lockedUntil: '2026-11-28T10:15:00.000Z' }),
      ),
    );
    renderApp('/personalDetails');
    const card = await screen.findByTestId('signing-password', {}, { timeout: 15_000 });
    expect(within(card).getByText(/因连续五次输错已锁定，至 .*2026.* 解除/)).toBeTruthy();
    expect(within(card).getByRole('button', { name: '修改签署密码' })).toBeTruthy();
  }, 40_000);
});
