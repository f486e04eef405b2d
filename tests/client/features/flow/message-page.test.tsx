import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

const M1 = '00000000-0000-4000-8000-000000000011';
const message = (over: object = {}) => ({
  id: M1,
  kind: 'sign_request',
  title: '待签署 To sign: Lease 2027',
  text: 'Wang Fang invites you to sign "Lease 2027".',
  flowId: '00000000-0000-4000-8000-0000000000f1',
  link: '/singingRoom/1/AbCdEfGhIjKlMnOpQrStUvWxYz012345',
  isRead: false,
  createdAt: '2026-11-21T08:00:00.000Z',
  ...over,
});

freshClientEachTest({ token: 't1', loginInfo: loginInfo() });

describe('messages', () => {
  it('lists notifications, marks one read when opened and follows its link (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    const marked: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/listMessages`, () =>
        ok({ list: [message()], total: 1, pageNum: 1, pageSize: 10, unread: 1 }),
      ),
      http.post(`${CSIGN}/markMessagesRead`, async ({ request }) => {
        marked.push(await request.json());
        return ok({ unread: 0 });
      }),
    );
    const { router } = renderApp('/message');
    const item = await screen.findByRole(
      'article',
      { name: '待签署 To sign: Lease 2027' },
      { timeout: 5000 },
    );
    expect(screen.getByText('1 unread')).toBeTruthy();
    await userEvent.click(within(item).getByRole('button', { name: 'Open' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/singingRoom/1/AbCdEfGhIjKlMnOpQrStUvWxYz012345'),
    );
    expect(marked).toEqual([{ ids: [M1], userType: 0 }]);
  }, 20_000);

  it('marks all read and filters unread ones (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    const requests: unknown[] = [];
    let unread = 1;
    server.use(
      http.post(`${CSIGN}/listMessages`, async ({ request }) => {
        requests.push(await request.json());
        return ok({ list: [message({ isRead: unread === 0 })], total: 1, pageNum: 1, pageSize: 10, unread });
      }),
      http.post(`${CSIGN}/markMessagesRead`, () => {
        unread = 0;
        return ok({ unread: 0 });
      }),
    );
    renderApp('/message');
    expect(await screen.findByText('1 条未读', {}, { timeout: 5000 })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '全部已读' }));
    expect(await screen.findByText('0 条未读')).toBeTruthy();
    expect(screen.getByRole('button', { name: '全部已读' })).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('checkbox', { name: '只看未读' }));
    await waitFor(() =>
      expect(requests.at(-1)).toEqual({ pageNum: 1, pageSize: 10, unreadOnly: true, userType: 0 }),
    );
  }, 20_000);
});
