// The workspace header says who the user acts as (the company, or the person), and platform
// administrators find the package administration screen in the left menu.
import { screen } from '@testing-library/react';
import { http } from 'msw';
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
