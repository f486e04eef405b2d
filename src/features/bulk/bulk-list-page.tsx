import Button from 'antd/es/button';
import Table from 'antd/es/table';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { type BulkSummary, listBulkSends } from '@/api/bulk.ts';
import { showApiError } from '@/api/http.ts';
import { Pager } from '@/components/pager.tsx';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { useFormatTime } from '@/lib/format-time.ts';
import { texts } from './texts.ts';

/** /manage/bulkSends: the account's bulk sends, newest first, each opening its progress and rows. */
export default function BulkListPage() {
  const tt = useTexts(texts);
  const when = useFormatTime();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ list: BulkSummary[]; total: number } | null>(null);

  useEffect(() => {
    listBulkSends({ pageNum: page, pageSize: 10 }).then(setData, showApiError);
  }, [page]);

  return (
    <main className="bulk-list" style={{ padding: 16 }}>
      <h1 style={{ fontSize: 20 }}>{tt('listTitle')}</h1>
      <p style={{ color: '#666' }}>
        {tt('listIntro')} <Link to={paths.manageFileTemplate}>{tt('newSend')}</Link>
      </p>
      <Table<BulkSummary>
        rowKey="bulkId"
        loading={data === null}
        pagination={false}
        dataSource={data?.list ?? []}
        locale={{ emptyText: tt('empty') }}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: tt('template'), render: (_, b) => b.templateName ?? '—' },
          { title: tt('file'), dataIndex: 'fileName' },
          { title: tt('status'), render: (_, b) => tt(`bst.${b.status}`) },
          {
            title: tt('results'),
            render: (_, b) => tt('counts', { sent: b.sent, failed: b.failed, total: b.total }),
          },
          { title: tt('created'), render: (_, b) => when(b.createdAt) },
          {
            title: tt('view'),
            render: (_, b) => (
              <Button size="small" onClick={() => navigate(`${paths.manageBulkSend}?bulkId=${b.bulkId}`)}>
                {tt('view')}
              </Button>
            ),
          },
        ]}
      />
      <div style={{ marginTop: 12 }}>
        <Pager total={data?.total ?? 0} current={page} onChange={setPage} />
      </div>
    </main>
  );
}
