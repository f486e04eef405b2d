// The workspace header says who the user acts as (the company, or the person), and platform
// administrators find the package administration screen in the left menu.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { Route } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { CSIGN, loginInfo, ok, server } from '../fixtures/msw.ts';
import { freshClientEachTest } from '../fixtures/state.ts';
import { renderWorkspace } from '../fixtures/render-screen.tsx';

freshClientEachTest({ locale: 'en-US', token: 't1' });

describe('workspace header and menu', () => {
  it('a company identity shows the company acted for; a person their name', async () => {
    useSessionStore
      .getState()
      .setVerified(loginInfo({ userType: 1, companyId: 'c1', companyName: '甲公司', name: '张三' }));
    const { unmount } = renderWorkspace();
    expect((await screen.findByTestId('acting-as')).textContent).toBe('Acting as 甲公司');
    unmount();
    useI18nStore.getState().setLocale('zh-CN');
    useSessionStore
      .getState()
      .setVerified(loginInfo({ userType: 0, companyId: null, companyName: null, name: '张三' }));
    renderWorkspace();
    expect((await screen.findByTestId('acting-as')).textContent).toBe('当前身份：张三');
  });

  it('a Contracts entry holds the contract list, quick and regular launch; Regular launch opens its screen', async () => {
    useSessionStore.getState().setVerified(loginInfo());
    renderWorkspace(<Route path="/manage/home/fileUpload" element={<p>the regular launch screen</p>} />);
    const nav = await screen.findByRole('navigation');
    await userEvent.click(within(nav).getByText('Contracts'));
    const entries = ['Contract list', 'Quick launch', 'Regular launch', 'Launch from a template'];
    for (const name of entries) expect(await within(nav).findByRole('menuitem', { name })).toBeTruthy();
    await userEvent.click(within(nav).getByRole('menuitem', { name: 'Regular launch' }));
    expect(await screen.findByText('the regular launch screen')).toBeTruthy();
  });

  it('the Contracts entry in Chinese: 合同, with 快速发起 and 常规发起', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    useSessionStore.getState().setVerified(loginInfo());
    renderWorkspace();
    const nav = await screen.findByRole('navigation');
    await userEvent.click(within(nav).getByText('合同'));
    expect(await within(nav).findByRole('menuitem', { name: '快速发起' })).toBeTruthy();
    expect(within(nav).getByRole('menuitem', { name: '常规发起' })).toBeTruthy();
    expect(within(nav).getByRole('menuitem', { name: '合同列表' })).toBeTruthy();
  });

  it('only a platform administrator sees the package administration entry', async () => {
    useSessionStore.getState().setVerified(loginInfo({ phone: '13812345678' }));
    const first = renderWorkspace();
    await screen.findByText('Packages');
    expect(screen.queryByText('Package administration')).toBeNull();
    first.unmount();
    server.use(http.post(`${CSIGN}/getPlatformAdminInfo`, () => ok({ isPlatformAdmin: true })));
    useSessionStore.getState().setVerified(loginInfo({ phone: '13812345679', userId: 'admin-1' }));
    renderWorkspace();
    expect(await screen.findByText('Package administration')).toBeTruthy();
  });
});
