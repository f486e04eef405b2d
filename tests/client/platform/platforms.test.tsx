import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import ManageLayout from '@/app/layouts/manage-layout.tsx';
import { CompanyOpenSuccess } from '@/features/account/company-open-success.tsx';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { setNotifier } from '@/lib/notify.ts';
import { PLATFORMS, platformEntry } from '@/platform/platforms.ts';
import { usePlatformStore } from '@/platform/platform-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { CSIGN, loginInfo, ok, server, setToken } from '../msw.ts';
import { http } from 'msw';

beforeEach(() => {
  useI18nStore.getState().setLocale('en-US');
  useSessionStore.setState({ userInfo: null, loginState: 0 });
  setNotifier({ error: () => {}, success: () => {} });
});

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

function renderWorkspace() {
  return render(
    <MemoryRouter initialEntries={['/manage/startup']}>
      <Routes>
        <Route path="/manage" element={<ManageLayout />}>
          <Route path="startup" element={<p>workspace body</p>} />
        </Route>
        <Route path="/loginPage" element={<p>login screen</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

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
