import { render, screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '@/app/antd-provider.tsx';
import { Providers } from '@/app/providers.tsx';
import RealNamePage from '@/features/person/real-name-page.tsx';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { notify, setNotifier } from '@/lib/notify.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { CSIGN, loginInfo, ok, server, setToken } from '../../fixtures/msw.ts';

const status = {
  isOpen: false,
  userType: 0,
  isRealNameDone: false,
  isAgreementAccepted: false,
  hasCaCert: false,
  agreementVersion: '1',
  identityProvider: { name: 'development', isDevelopment: true },
  isPersonAnswer: false,
};

function renderRealName(path: string) {
  return render(
    <Providers>
      <AntdProvider>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={path} element={<RealNamePage />} />
          </Routes>
        </MemoryRouter>
      </AntdProvider>
    </Providers>,
  );
}

beforeEach(() => {
  useI18nStore.getState().setLocale('en-US');
  setToken('t1');
  server.use(http.post(`${CSIGN}/checkCurrentLoginUserOpenSign`, () => ok(status)));
});

describe('real-name form (issue 11 edge 8)', () => {
  it.each(['/realName', '/h5/v1/nameAuthentication', '/pc/v1/nameAuthentication'])(
    '%s prefills the phone the account is known by',
    async (path) => {
      useSessionStore.getState().setVerified(loginInfo({ phone: '13912345678' }));
      renderRealName(path);
      const phone = (await screen.findByLabelText('Phone')) as HTMLInputElement;
      expect(phone.value).toBe('13912345678');
      expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('');
    },
  );
});

describe('success messages (issue 11 edge 8)', () => {
  it('a new success message replaces the one still showing instead of stacking', async () => {
    setNotifier(null);
    try {
      notify.success('Code sent', 2000);
      await waitFor(() => expect(document.body.textContent).toContain('Code sent'));
      notify.success('Real name verified', 2000);
      await waitFor(() => expect(document.body.textContent).toContain('Real name verified'));
      expect(document.body.textContent).not.toContain('Code sent');
      expect(document.querySelectorAll('.ant-message-notice').length).toBe(1);
    } finally {
      setNotifier(null);
    }
  });
});
