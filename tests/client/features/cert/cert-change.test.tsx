import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CertChangeInfo, CertRecord } from '#contract/calls/cert.ts';
import { CSIGN, loginInfo, loginInfoHandler, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

const cert = (over: Partial<CertRecord> = {}): CertRecord => ({
  serial: '5a1b2c3d4e5f60718293a4b5c6d7e8f9',
  subject: 'CN=Li Lei, C=CN',
  commonName: 'Li Lei',
  issuer: 'CN=E-Sign Issuing CA',
  notBefore: '2026-01-01T00:00:00.000Z',
  notAfter: '2027-01-01T00:00:00.000Z',
  status: 'good',
  isExpired: false,
  isCurrent: true,
  revokedAt: null,
  revocationReason: null,
  issuedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

const info = (over: Partial<CertChangeInfo> = {}): CertChangeInfo => ({
  userType: 0,
  currentName: 'Li Lei',
  current: cert(),
  daysLeft: 200,
  isRenewalAdvised: false,
  renewAdviceDays: 30,
  isNameChanged: false,
  canChange: true,
  role: null,
  phoneMasked: '138****5678',
  history: [],
  ...over,
});

freshClientEachTest({ locale: 'en-US', token: 't1' });

describe('certificate change screen', () => {
  it('advises renewal when few days are left', async () => {
    loginInfoHandler(loginInfo({ hasCaCert: true }));
    server.use(
      http.post(`${CSIGN}/getCertChangeInfo`, () => ok(info({ daysLeft: 12, isRenewalAdvised: true }))),
    );
    renderApp('/manage/certChange');
    expect(
      await screen.findByText(/expires in 12 days\. Renew it now/, undefined, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Renew certificate' })).toBeTruthy();
  }, 30_000);

  it('shows subject and issuer with readable names, never 2.5.4.5=… (issue 11 edge 3)', async () => {
    loginInfoHandler(loginInfo({ hasCaCert: true }));
    const current = cert({
      subject: 'C=CN, O=ACME Ltd, CN=Li Lei, 2.5.4.5=3f9a0b1c',
      issuer: 'C=CN, O=E-Sign, CN=E-Sign Issuing CA',
    });
    server.use(http.post(`${CSIGN}/getCertChangeInfo`, () => ok(info({ current }))));
    renderApp('/manage/certChange');
    const subject = await screen.findByTestId('cert-subject', undefined, { timeout: 10_000 });
    expect(subject.textContent).toContain('Subject serial number: 3f9a0b1c');
    expect(subject.textContent).toContain('Organisation: ACME Ltd');
    expect(subject.textContent).toContain('Name: Li Lei');
    expect(screen.getByTestId('cert-issuer').textContent).toContain('Name: E-Sign Issuing CA');
    expect(document.body.textContent).not.toContain('2.5.4.5');
  }, 30_000);

  it('a company operator sees the certificate without the change buttons', async () => {
    loginInfoHandler(loginInfo({ userType: 1, companyId: 'c1', hasCaCert: true }));
    server.use(
      http.post(`${CSIGN}/getCertChangeInfo`, () =>
        ok(info({ userType: 1, role: 'operator', canChange: false, currentName: 'ACME Ltd' })),
      ),
    );
    renderApp('/manage/certChange');
    expect(
      await screen.findByText(/only the administrator can renew or replace it/, undefined, {
        timeout: 10_000,
      }),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Renew certificate' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Revoke and reissue' })).toBeNull();
  }, 30_000);

  it('reissue: "name changed" with the same name is blocked, the SMS code is checked before any call', async () => {
    loginInfoHandler(loginInfo({ hasCaCert: true }));
    const reissueCalls: unknown[] = [];
    let current = info();
    let refreshed = 0;
    server.use(
      http.post(`${CSIGN}/getCertChangeInfo`, () => ok(current)),
      http.post(`${CSIGN}/reissueCaCert`, async ({ request }) => {
        reissueCalls.push(await request.json());
        const fresh = cert({ serial: 'aaaabbbbccccdddd0000111122223333' });
        current = info({
          current: fresh,
          history: [
            cert({
              isCurrent: false,
              status: 'revoked',
              revokedAt: '2026-06-01T00:00:00.000Z',
              revocationReason: 'keyCompromise',
            }),
          ],
        });
        return ok({ certificate: fresh, revokedSerials: [cert().serial], revocationReason: 'keyCompromise' });
      }),
      http.post(`${CSIGN}/updateLoginUserInfoCache`, () => {
        refreshed += 1;
        return ok(loginInfo({ hasCaCert: true }));
      }),
    );
    renderApp('/manage/certChange');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Revoke and reissue' }, { timeout: 10_000 }),
    );
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Name changed' }));
    expect(within(dialog).getByText(/Your verified name is still Li Lei/)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Revoke and reissue' })).toHaveProperty(
      'disabled',
      true,
    );

    await userEvent.click(within(dialog).getByRole('radio', { name: 'Key compromised' }));
    expect(
      within(dialog).getByText(/cannot vouch for any signature made with the revoked certificate/),
    ).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke and reissue' }));
    expect(within(dialog).getByText('Enter the SMS code')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('SMS code'), '12a');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke and reissue' }));
    expect(within(dialog).getByText('The SMS code has 6 digits')).toBeTruthy();
    expect(reissueCalls).toEqual([]);

    await userEvent.clear(within(dialog).getByLabelText('SMS code'));
    await userEvent.type(within(dialog).getByLabelText('SMS code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke and reissue' }));
    await screen.findByText(/New serial number: aaaabbbbccccdddd0000111122223333/);
    expect(reissueCalls).toEqual([{ reason: 'keyCompromise', smsCode: '123456', userType: 0 }]);
    const history = screen.getByTestId('cert-history');
    await waitFor(() => expect(within(history).getByText('Revoked')).toBeTruthy());
    expect(within(history).getByText('Key compromised')).toBeTruthy();
    expect(refreshed).toBeGreaterThan(0);
  }, 30_000);
});
