import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatTime } from '@/lib/format-time.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { exportSheet, type SheetColumn, sheetRows } from '@/lib/export-sheet.ts';
import { CSIGN, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

// The real helper builds the rows; only the file download (XLSX.writeFile) is replaced by a spy.
vi.mock('@/lib/export-sheet.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/export-sheet.ts')>()),
  exportSheet: vi.fn(async () => {}),
}));

type Msg = { id: string; title: string; text: string; isRead: boolean; createdAt: string };
const messages: Msg[] = Array.from({ length: 250 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  kind: 'sign_request',
  title: `Contract ${i + 1}`,
  text: `Please sign contract ${i + 1}.`,
  flowId: null,
  link: null,
  isRead: i % 3 === 0,
  createdAt: new Date(Date.UTC(2026, 10, 21, 8, 0) - i * 60_000).toISOString(),
}));

freshClientEachTest({ token: 't1', loginInfo: loginInfo() });
beforeEach(() => {
  vi.mocked(exportSheet).mockClear();
});

/** listMessages over `all`, paged and filtered as the server does; records every request. */
function listHandler(all: Msg[]) {
  const requests: { pageNum: number; pageSize: number; unreadOnly?: boolean }[] = [];
  server.use(
    http.post(`${CSIGN}/listMessages`, async ({ request }) => {
      const body = (await request.json()) as { pageNum: number; pageSize: number; unreadOnly?: boolean };
      requests.push(body);
      const rows = body.unreadOnly ? all.filter((m) => !m.isRead) : all;
      const start = (body.pageNum - 1) * body.pageSize;
      return ok({
        list: rows.slice(start, start + body.pageSize),
        total: rows.length,
        pageNum: body.pageNum,
        pageSize: body.pageSize,
        unread: all.filter((m) => !m.isRead).length,
      });
    }),
  );
  return requests;
}

describe('messages export', () => {
  it('exports every unread message of the filter, not only the page shown (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    const requests = listHandler(messages);
    renderApp('/message');
    await screen.findByRole('article', { name: 'Contract 1' }, { timeout: 5000 });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Unread only' }));
    await screen.findByRole('article', { name: 'Contract 2' });
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Contract 1' })).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(exportSheet).toHaveBeenCalledTimes(1));
    const [fileName, columns, rows] = vi.mocked(exportSheet).mock.calls[0] as [
      string,
      SheetColumn<Msg>[],
      Msg[],
    ];
    const unread = messages.filter((m) => !m.isRead);
    expect(unread.length).toBeGreaterThan(100);
    expect(fileName).toBe('messages');
    expect(rows.map((m) => m.id)).toEqual(unread.map((m) => m.id));
    expect(sheetRows(columns, rows.slice(0, 1))).toEqual([
      ['Title', 'Message', 'Received', 'Read'],
      ['Contract 2', 'Please sign contract 2.', formatTime(unread[0].createdAt, 'en-US'), 'Unread'],
    ]);
    // Two export pages of the unread filter after the screen's own pages.
    expect(requests.filter((r) => r.pageSize === 100)).toEqual([
      expect.objectContaining({ pageNum: 1, unreadOnly: true }),
      expect.objectContaining({ pageNum: 2, unreadOnly: true }),
    ]);
  }, 20_000);

  it('cannot export when there is no message (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    listHandler([]);
    renderApp('/message');
    expect(await screen.findByText('暂无消息。', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: '导出' })).toHaveProperty('disabled', true);
    expect(exportSheet).not.toHaveBeenCalled();
  }, 20_000);
});
