import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Empty from 'antd/es/empty';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { type FlowMessage, listMessages, markMessagesRead } from '@/api/flow.ts';
import { ApiError } from '@/api/http.ts';
import { loginRedirect, paths } from '@/config/paths.ts';
import { Pager } from '@/components/pager.tsx';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { allPages, exportSheet, type SheetColumn } from '@/lib/export-sheet.ts';
import { DEFAULT_PAGE_SIZE } from '@/lib/page.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { formatTime } from '@/lib/format-time.ts';

/** /message: the user's notifications, newest first; opening one marks it read and follows its link. */
export default function MessagePage() {
  const tt = useTexts(texts);
  const locale = useI18nStore((s) => s.locale);
  const navigate = useNavigate();
  const isLoggedIn = useSessionStore((s) => s.userInfo !== null);
  const [page, setPage] = useState(1);
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [data, setData] = useState<{ list: FlowMessage[]; total: number; unread: number } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isExporting, setIsExporting] = useState(false);

  const load = useCallback(async () => {
    if (!isLoggedIn) return;
    try {
      setData(
        await listMessages({
          pageNum: page,
          pageSize: DEFAULT_PAGE_SIZE,
          ...(unreadOnly ? { unreadOnly } : {}),
        }),
      );
    } catch (e) {
      setProblem(e instanceof ApiError ? e.message : String(e));
    }
  }, [page, unreadOnly, isLoggedIn]);
  useEffect(() => {
    void load();
  }, [load]);

  if (!isLoggedIn) {
    return (
      <main style={{ maxWidth: 480, margin: '48px auto', padding: 16, textAlign: 'center' }}>
        <Button type="primary" onClick={() => navigate(loginRedirect(paths.loginPage, paths.message))}>
          {tt('login')}
        </Button>
      </main>
    );
  }

  const doExport = async () => {
    setIsExporting(true);
    try {
      const rows = await allPages((pageNum, pageSize) =>
        listMessages({ pageNum, pageSize, ...(unreadOnly ? { unreadOnly } : {}) }),
      );
      const columns: SheetColumn<FlowMessage>[] = [
        { title: tt('colTitle'), value: (m) => m.title },
        { title: tt('colMessage'), value: (m) => m.text },
        { title: tt('colReceived'), value: (m) => formatTime(m.createdAt, locale) },
        { title: tt('colRead'), value: (m) => (m.isRead ? tt('readYes') : tt('readNo')) },
      ];
      await exportSheet(tt('sheetMessages'), columns, rows);
    } catch (e) {
      showApiError(e);
    } finally {
      setIsExporting(false);
    }
  };

  const open = async (m: FlowMessage) => {
    if (!m.isRead) {
      try {
        await markMessagesRead({ ids: [m.id] });
      } catch {
        // still open it
      }
    }
    if (m.link) navigate(m.link.replace(/^#/, ''));
    else void load();
  };

  return (
    <main style={{ maxWidth: 860, margin: '0 auto', padding: 16 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <h1 style={{ fontSize: 20, flex: 1, margin: '8px 0' }}>
          {tt('messagesTitle')}{' '}
          {data ? (
            <span style={{ fontSize: 13, color: '#999' }}>{tt('unread', { count: data.unread })}</span>
          ) : null}
        </h1>
        <Checkbox
          checked={unreadOnly}
          onChange={(e) => {
            setUnreadOnly(e.target.checked);
            setPage(1);
          }}
        >
          {tt('unreadOnly')}
        </Checkbox>
        <Button
          disabled={!data || data.unread === 0}
          onClick={async () => {
            await markMessagesRead({});
            await load();
          }}
        >
          {tt('markAllRead')}
        </Button>
        <Button disabled={!data || data.total === 0} loading={isExporting} onClick={() => void doExport()}>
          {tt('export')}
        </Button>
      </div>
      {problem ? <Alert type="error" title={problem} /> : null}
      {data && data.list.length === 0 ? <Empty description={tt('noMessages')} /> : null}
      <ul style={{ listStyle: 'none', padding: 0 }}>
        {data?.list.map((m) => (
          <li key={m.id}>
            <article
              aria-label={m.title}
              data-read={m.isRead ? 'true' : 'false'}
              style={{
                background: '#fff',
                border: '1px solid #eee',
                borderLeft: m.isRead ? '1px solid #eee' : '3px solid #ec1c23',
                borderRadius: 6,
                padding: 12,
                marginBottom: 8,
                display: 'flex',
                gap: 8,
                alignItems: 'center',
              }}
            >
              <div style={{ flex: 1, minWidth: 0 }}>
                <div style={{ fontWeight: m.isRead ? 400 : 600 }}>{m.title}</div>
                <div style={{ color: '#666', fontSize: 13, wordBreak: 'break-word' }}>{m.text}</div>
                <div style={{ color: '#999', fontSize: 12 }}>{formatTime(m.createdAt, locale)}</div>
              </div>
              <Button onClick={() => void open(m)}>{tt('open')}</Button>
            </article>
          </li>
        ))}
      </ul>
      {data && data.total > 0 ? (
        <Pager total={data.total} current={page} onChange={(p) => setPage(p)} />
      ) : null}
    </main>
  );
}
