import Button from 'antd/es/button';
import Tag from 'antd/es/tag';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { listCopiedToMe, openCopiedFlow } from '@/api/cc.ts';
import { ApiError } from '@/api/http.ts';
import { ccTexts } from '@/components/cc/cc-texts.ts';
import { Pager } from '@/components/pager.tsx';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { formatTime } from '@/lib/format-time.ts';
import { notify } from '@/lib/notify.ts';
import { flowCardStyle, STATUS_COLORS } from './list-model.ts';

type Page = Awaited<ReturnType<typeof listCopiedToMe>>;

/** The "Copied to me / 抄送我的" tab of /signList (抄送, issue 29): each opens the read-only view. */
export function CopiedList({ isPhone }: { isPhone: boolean }) {
  const tt = useTexts(ccTexts);
  const locale = useI18nStore((s) => s.locale);
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page | null>(null);

  useEffect(() => {
    listCopiedToMe({ pageNum: page, pageSize: 10 }).then(setData, (e: unknown) => {
      if (!(e instanceof ApiError && e.handled))
        notify.error(String(e instanceof Error ? e.message : e), 2000);
    });
  }, [page]);

  const open = async (ccId: string) => {
    try {
      navigate((await openCopiedFlow({ ccId })).link);
    } catch (e) {
      if (!(e instanceof ApiError && e.handled))
        notify.error(String(e instanceof Error ? e.message : e), 2000);
    }
  };

  if (!data) return <p>{tt('loading')}</p>;
  return (
    <section aria-label={tt('tabCopied')}>
      {data.list.length === 0 ? <p style={{ color: '#999' }}>{tt('emptyCopied')}</p> : null}
      <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {data.list.map((row) => (
          <li key={row.ccId}>
            <article aria-label={row.title} style={flowCardStyle(isPhone)}>
              <div style={{ flex: 1, minWidth: 0, wordBreak: 'break-word' }}>
                <div style={{ fontWeight: 600 }}>
                  {row.title} <Tag color={STATUS_COLORS[row.status]}>{tt(`status.${row.status}`)}</Tag>
                </div>
                <div style={{ color: '#666', fontSize: 12 }}>
                  {tt('from', { name: row.initiatorCompanyName ?? row.initiatorName ?? '' })} ·{' '}
                  {formatTime(row.createdAt, locale)}
                </div>
              </div>
              <Button onClick={() => void open(row.ccId)}>{tt('open')}</Button>
            </article>
          </li>
        ))}
      </ul>
      <Pager total={data.total} current={page} onChange={(p) => setPage(p)} />
    </section>
  );
}
