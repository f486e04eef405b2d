import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import ManageLayout from '@/app/layouts/manage-layout.tsx';
import { Providers } from '@/app/providers.tsx';
import { CompanyOpenSuccess } from '@/features/company/company-open-success.tsx';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { PLATFORMS, platformEntry } from '@/platform/platforms.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { CSIGN, loginInfo, ok, server, setToken } from '../fixtures/msw.ts';
import { http } from 'msw';
import { freshClientEachTest } from '../fixtures/state.ts';
import { renderWorkspace as renderAppWorkspace } from '../fixtures/render-screen.tsx';

freshClientEachTest({ platform: null, locale: 'en-US' });

describe('platform entries (SPEC §3 table)', () => {
  it('BCP_STFWPT: everything on, home /, login loginPage, create-company on, logo in the workspace', () => {
    const e = PLATFORMS.BCP_STFWPT;
    expect([e.hyCenter.hasHead, e.hyCenter.hasLeft, e.hyCenter.hasBottom, e.oxqWorkspace.hasHead]).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(e.hyCenter.homeUrl).toBe('/');
    expect(e.hyCenter.register).toEqual({ loginUrl: 'loginPage', hasCreateCompanyBtn: true });
    expect(e.hyCenter.resetPwd.loginUrl).toBe('loginPage');
    expect(e.oxqWorkspace.ptLogoUrl).not.toBe('');
    expect(e.oxqWorkspace.companyOpenAccount.hasEnterWorkspaceBtn).toBe(true);
  });
  it('ZHDB: frame on, home and login URLs empty, no create-company button, no logo, enter button on', () => {
    const e = PLATFORMS.ZHDB;
    expect([e.hyCenter.hasHead, e.hyCenter.hasLeft, e.hyCenter.hasBottom, e.oxqWorkspace.hasHead]).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([e.hyCenter.homeUrl, e.hyCenter.register.loginUrl, e.hyCenter.resetPwd.loginUrl]).toEqual([
      '',
      '',
      '',
    ]);
    expect(e.hyCenter.register.hasCreateCompanyBtn).toBe(false);
    expect([e.hyCenter.ptLogoUrl, e.oxqWorkspace.ptLogoUrl]).toEqual(['', '']);
    expect(e.oxqWorkspace.companyOpenAccount.hasEnterWorkspaceBtn).toBe(true);
  });
  it('ZYPT: no header, left menu, footer, logo, name, second line or enter button', () => {
    const e = PLATFORMS.ZYPT;
    expect([e.hyCenter.hasHead, e.hyCenter.hasLeft, e.hyCenter.hasBottom, e.oxqWorkspace.hasHead]).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect([e.hyCenter.ptLogoUrl, e.oxqWorkspace.ptLogoUrl, e.hyCenter.ptName]).toEqual(['', '', null]);
    expect(e.hyCenter.register.hasCreateCompanyBtn).toBe(false);
    expect(e.oxqWorkspace.companyOpenAccount).toMatchObject({
      successTitle2: null,
      hasEnterWorkspaceBtn: false,
    });
  });
  it('falls back to the default entry for an unknown code; the store follows setCode', () => {
    expect(platformEntry('XYZ').fromPtCode).toBe('BCP_STFWPT');
    usePlatformStore.getState().setCode('ZYPT');
    expect(usePlatformStore.getState().entry.fromPtCode).toBe('ZYPT');
    expect(sessionStorage.getItem('fromPtCode')).toBe('ZYPT');
  });
});

describe('CompanyOpenSuccess (SPEC §8)', () => {
  it.each(['BCP_STFWPT', 'ZHDB'])(
    '%s: title, second line and the enter button, in both languages',
    async (code) => {
      usePlatformStore.getState().setCode(code);
      const onEnter = vi.fn();
      render(<CompanyOpenSuccess onEnter={onEnter} />);
      expect(screen.getByText('Congratulations! You have successfully opened e-signature!')).toBeTruthy();
      expect(
        screen.getByText(/Your e-signature account is open\. Click the 'Enter e-signature system' button/),
      ).toBeTruthy();
      await userEvent.click(screen.getByRole('button', { name: 'Enter e-signature system' }));
      expect(onEnter).toHaveBeenCalledOnce();
      useI18nStore.getState().setLocale('zh-CN');
      expect(await screen.findByText('恭喜您！您已成功开通电子签章！')).toBeTruthy();
      expect(screen.getByRole('button', { name: '进入电子签章系统' })).toBeTruthy();
    },
  );

  it('ZYPT: the title only — no second line, no button', () => {
    usePlatformStore.getState().setCode('ZYPT');
    const { container } = render(<CompanyOpenSuccess onEnter={() => {}} />);
    expect(screen.getByText('Congratulations! You have successfully opened e-signature!')).toBeTruthy();
    expect(screen.queryByText(/Your e-signature account is open/)).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(container.querySelector('.ant-result-subtitle')).toBeNull();
  });
});

const renderWorkspace = () => renderAppWorkspace(<Route path="/loginPage" element={<p>login screen</p>} />);

describe('workspace layout reads visibility from the platform entry', () => {
  it('BCP_STFWPT: header with logo and name, left menu, footer; the masked phone opens a menu with Log out', async () => {
    usePlatformStore.getState().setCode('BCP_STFWPT');
    setToken('t1');
    useSessionStore.getState().setVerified(loginInfo({ phone: '13812345678' }));
    let loggedOut = false;
    server.use(
      http.post(`${CSIGN}/logout`, () => {
        loggedOut = true;
        return ok(null);
      }),
    );
    renderWorkspace();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByTestId('platform-logo')).toBeTruthy();
    expect(screen.getByText('E-Signature Platform')).toBeTruthy();
    expect(screen.getByRole('navigation')).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    expect(screen.getByText('workspace body')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByTestId('current-user'));
    expect(screen.getByTestId('current-user').textContent).toBe('138****5678');
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));
    expect(await screen.findByText('login screen')).toBeTruthy();
    expect(loggedOut).toBe(true);
    expect(document.cookie).not.toContain('token=');
    expect(useSessionStore.getState().userInfo).toBeNull();
  });

  it('ZHDB: header without a logo', () => {
    usePlatformStore.getState().setCode('ZHDB');
    renderWorkspace();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.queryByTestId('platform-logo')).toBeNull();
    expect(screen.getByRole('navigation')).toBeTruthy();
  });

  it('ZYPT: no header, left menu, footer or logo — only the page', () => {
    usePlatformStore.getState().setCode('ZYPT');
    renderWorkspace();
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByRole('contentinfo')).toBeNull();
    expect(screen.queryByTestId('platform-logo')).toBeNull();
    expect(screen.getByText('workspace body')).toBeTruthy();
  });

  it('switches the language from the header', async () => {
    usePlatformStore.getState().setCode('BCP_STFWPT');
    renderWorkspace();
    await userEvent.click(screen.getByRole('button', { name: '中文' }));
    await waitFor(() => expect(screen.getByText('电子签章平台')).toBeTruthy());
    expect(localStorage.getItem('locale')).toBe('zh-CN');
  });
});

describe('no brand of the default platform under a partner (issue 11 edge 5)', () => {
  const DEFAULT_BRAND = /电子签章平台|E-Signature Platform/;
  function renderWithHead() {
    if (!document.querySelector('link[rel="icon"]')) {
      const link = document.createElement('link');
      link.rel = 'icon';
      link.href = '/favicon.svg';
      document.head.append(link);
    }
    return render(
      <Providers>
        <MemoryRouter initialEntries={['/manage/startup']}>
          <Routes>
            <Route path="/manage" element={<ManageLayout />}>
              <Route path="startup" element={<p>workspace body</p>} />
            </Route>
          </Routes>
        </MemoryRouter>
      </Providers>,
    );
  }
  const icon = () => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.getAttribute('href');

  it.each([
    ['ZHDB', 'en-US', 'Guarantee-company platform'],
    ['ZHDB', 'zh-CN', '担保公司平台'],
    ['ZYPT', 'en-US', 'Research platform'],
    ['ZYPT', 'zh-CN', '科研平台'],
  ] as const)(
    '%s (%s): footer, title and favicon are the partner’s or neutral',
    async (code, locale, name) => {
      useI18nStore.getState().setLocale(locale);
      usePlatformStore.getState().setCode(code);
      renderWithHead();
      await waitFor(() => expect(document.title).toBe(name));
      expect(document.body.textContent).not.toMatch(DEFAULT_BRAND);
      const footer = screen.queryByRole('contentinfo');
      if (footer) expect(footer.textContent).toContain(name);
      expect(icon()).toBe('/favicon-plain.svg');
    },
  );

  it('BCP_STFWPT keeps its own name, footer and mark', async () => {
    usePlatformStore.getState().setCode('BCP_STFWPT');
    renderWithHead();
    await waitFor(() => expect(document.title).toBe('E-Signature Platform'));
    expect(screen.getByRole('contentinfo').textContent).toContain('E-Signature Platform');
    expect(icon()).toBe('/favicon.svg');
  });
});
