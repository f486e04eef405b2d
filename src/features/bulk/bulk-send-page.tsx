import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Progress from 'antd/es/progress';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  type BulkCheck,
  type BulkProblem,
  type BulkRow,
  type BulkSummary,
  bulkResultsUrl,
  bulkSheetUrl,
  checkBulkSend,
  getBulkSend,
  startBulkSend,
} from '@/api/bulk.ts';
import { showApiError } from '@/api/http.ts';
import { getTemplate } from '@/api/template.ts';
import { Pager } from '@/components/pager.tsx';
import { paths } from '@/config/paths.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { texts } from './texts.ts';

const POLL_MS = 2000;
const ROWS_PAGE = 20;

type Batch = BulkSummary & { rows: { list: BulkRow[]; total: number } };

/**
 * /manage/bulkSend?templateId=… (download the sheet, upload, the problems by row and column, send the good
 * rows) and ?bulkId=… (the batch's progress, polled, and its rows): the batch id is in the address, so a
 * reload shows the same progress.
 */
export default function BulkSendPage() {
  const tt = useTexts(texts);
  const lang = useI18nStore((s) => s.locale) === 'zh-CN' ? 'zh' : 'en';
  const [search, setSearch] = useSearchParams();
  const bulkId = search.get('bulkId');
  const [templateId, setTemplateId] = useState(search.get('templateId'));
  const [templateName, setTemplateName] = useState('');
  const [check, setCheck] = useState<BulkCheck | null>(null);
  const [isChecking, setIsChecking] = useState(false);
  const [batch, setBatch] = useState<Batch | null>(null);
  const [page, setPage] = useState(1);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!templateId) return;
    getTemplate({ templateId }).then((t) => setTemplateName(t.name), showApiError);
  }, [templateId]);

  const load = useCallback(async () => {
    if (!bulkId) return;
    try {
      const b = await getBulkSend({ bulkId, pageNum: page, pageSize: ROWS_PAGE });
      setBatch(b);
      setTemplateId(b.templateId);
    } catch (e) {
      showApiError(e);
    }
  }, [bulkId, page]);
  useEffect(() => {
    void load();
  }, [load]);
  // While sending, the progress is read again every few seconds.
  const isSending = batch?.status === 'sending';
  useEffect(() => {
    if (!isSending) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [isSending, load]);

  const upload = async (file: File) => {
    if (!templateId) return;
    setIsChecking(true);
    setCheck(null);
    try {
      const c = await checkBulkSend(templateId, file);
      setCheck(c);
      setSearch({ templateId, bulkId: c.bulkId });
    } catch (e) {
      showApiError(e);
    } finally {
      setIsChecking(false);
    }
  };

  const send = async () => {
    if (!bulkId) return;
    try {
      await startBulkSend({ bulkId, onlyGood: true });
      setCheck(null);
      await load();
    } catch (e) {
      showApiError(e);
    }
  };

  const good = check?.good ?? batch?.good ?? 0;
  const started = batch && batch.status !== 'checked';
  const finished = (batch?.sent ?? 0) + (batch?.failed ?? 0);
  return (
    <main className="bulk-send" style={{ padding: 16, maxWidth: 1100 }}>
      <h1 style={{ fontSize: 20 }}>{tt('title', { name: templateName || batch?.templateName || '' })}</h1>
      <p style={{ color: '#666' }}>
        {tt('intro')} <Link to={paths.manageBulkSends}>{tt('allBatches')}</Link>
      </p>
      {started ? null : (
        <section style={{ display: 'grid', gap: 12, marginBottom: 16 }}>
          <div>
            <h2 style={{ fontSize: 16 }}>{tt('step1')}</h2>
            {templateId ? (
              <a href={bulkSheetUrl(templateId, lang)} download>
                {tt('download')}
              </a>
            ) : null}
          </div>
          <div>
            <h2 style={{ fontSize: 16 }}>{tt('step2')}</h2>
            <input
              ref={fileInput}
              type="file"
              accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
              aria-label={tt('upload')}
              style={{ display: 'none' }}
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) void upload(file);
              }}
            />
            <Button type="primary" loading={isChecking} onClick={() => fileInput.current?.click()}>
              {isChecking ? tt('checking') : tt('upload')}
            </Button>
          </div>
        </section>
      )}
      {check ? <CheckResult check={check} /> : null}
      {bulkId && batch?.status === 'checked' && good > 0 ? (
        <Popconfirm
          title={tt('sendConfirm', { n: good })}
          okText={tt('sendOk')}
          cancelText={tt('cancel')}
          onConfirm={send}
        >
          <Button type="primary" style={{ marginBottom: 16 }}>
            {tt('send', { n: good })}
          </Button>
        </Popconfirm>
      ) : null}
      {started && batch ? (
        <section aria-label={tt('progress')}>
          <h2 style={{ fontSize: 16 }}>{batch.status === 'done' ? tt('done') : tt('progress')}</h2>
          <Progress
            percent={Math.round((finished / Math.max(1, batch.good)) * 100)}
            status={batch.status === 'done' ? (batch.failed ? 'exception' : 'success') : 'active'}
          />
          <p>{tt('counts', { sent: batch.sent, failed: batch.failed, total: batch.total })}</p>
          <a href={bulkResultsUrl(batch.bulkId, lang)} download>
            {tt('downloadResults')}
          </a>
        </section>
      ) : null}
      {batch ? (
        <section style={{ marginTop: 16 }}>
          <h2 style={{ fontSize: 16 }}>{tt('results')}</h2>
          <Table<BulkRow>
            rowKey="row"
            size="small"
            pagination={false}
            dataSource={batch.rows.list}
            scroll={{ x: 'max-content' }}
            columns={[
              { title: tt('row'), dataIndex: 'row' },
              {
                title: tt('status'),
                render: (_, r) => (
                  <Tag color={{ sent: 'green', failed: 'red', skipped: 'orange' }[r.status as string]}>
                    {tt(`st.${r.status}`)}
                  </Tag>
                ),
              },
              { title: tt('contract'), dataIndex: 'title' },
              { title: tt('parties'), render: (_, r) => r.parties.join(' / ') },
              {
                title: tt('reason'),
                render: (_, r) =>
                  r.flowId ? (
                    <Link to={`${paths.signList}?tab=launched&flowId=${r.flowId}`}>{tt('open')}</Link>
                  ) : (
                    r.message
                  ),
              },
            ]}
          />
          <div style={{ marginTop: 12 }}>
            <Pager total={batch.rows.total} current={page} pageSize={ROWS_PAGE} onChange={setPage} />
          </div>
        </section>
      ) : null}
    </main>
  );
}

function CheckResult({ check }: { check: BulkCheck }) {
  const tt = useTexts(texts);
  return (
    <section aria-label={tt('problems')} style={{ marginBottom: 16 }}>
      <Alert
        type={check.problems.length ? 'warning' : 'success'}
        showIcon
        title={tt('checked', { rows: check.rows, good: check.good })}
        description={
          <>
            <div>{tt('quota', { n: check.quotaRemaining })}</div>
            {check.quotaRemaining < check.good ? <div>{tt('overQuota')}</div> : null}
            {check.problems.length ? <div>{tt('fixHint')}</div> : null}
          </>
        }
      />
      <Table<BulkProblem>
        rowKey={(p) => `${p.row}|${p.column}|${p.message}`}
        size="small"
        pagination={false}
        style={{ marginTop: 12 }}
        dataSource={check.problems}
        locale={{ emptyText: tt('noProblems') }}
        scroll={{ x: 'max-content', y: 400 }}
        columns={[
          { title: tt('row'), dataIndex: 'row', width: 70 },
          { title: tt('column'), render: (_, p) => p.column ?? tt('wholeRow') },
          { title: tt('message'), dataIndex: 'message' },
        ]}
      />
    </section>
  );
}
