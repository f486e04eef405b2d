import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useId, useState } from 'react';
import {
  type AccountPackage,
  exportUserPackageDetail,
  getUserPackageDetail,
  getUserPackageList,
  type UsagePage,
  type UsageRow,
  type UserPackages,
} from '@/api/package.ts';
import { paths } from '@/config/paths.ts';
import { Pager } from '@/components/pager.tsx';
import { useSafeNavigate } from '@/hooks/use-safe-navigate.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { exportSheet } from '@/lib/export-sheet.ts';
import { DEFAULT_PAGE_SIZE } from '@/lib/page.ts';
import { usePackageName, usePackageTexts } from './parts.tsx';
import { emptyUsageFilters, type UsageFilterForm, usageColumns, usageRequest } from './usage-model.ts';
import { showApiError } from '@/api/http.ts';
import { formatTime } from '@/lib/format-time.ts';

const PKG_STATUS_COLORS = { active: 'green', expired: 'default', refunded: 'purple' } as const;

/**
 * /manage/account/accountInfo/userPackageDetail: the account's packages and quota, and the signing units
 * launched flows took (filters, pagination), exported to a spreadsheet.
 */
export default function UsageDetailPage() {
  const tt = usePackageTexts();
  const nameOf = usePackageName();
  const locale = useI18nStore((s) => s.locale);
  const navigate = useSafeNavigate();
  const ids = { keyword: useId(), from: useId(), to: useId() };
  const [mine, setMine] = useState<UserPackages | null>(null);
  const [form, setForm] = useState<UsageFilterForm>(emptyUsageFilters);
  const [applied, setApplied] = useState<UsageFilterForm>(emptyUsageFilters);
  const [page, setPage] = useState<UsagePage | null>(null);
  const [pageNum, setPageNum] = useState(1);
  const [isExporting, setIsExporting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    getUserPackageList().then(setMine, showApiError);
  }, []);
  const load = useCallback(async () => {
    try {
      setPage(await getUserPackageDetail({ ...usageRequest(applied), pageNum, pageSize: DEFAULT_PAGE_SIZE }));
    } catch (e) {
      showApiError(e);
    }
  }, [applied, pageNum]);
  useEffect(() => {
    void load();
  }, [load]);

  const columns = usageColumns(tt, locale);
  const search = (f: UsageFilterForm) => {
    setForm(f);
    setApplied(f);
    setPageNum(1);
  };
  const onExport = async () => {
    setIsExporting(true);
    setNotice(null);
    try {
      const res = await exportUserPackageDetail(usageRequest(applied));
      if (res.isTruncated) setNotice(tt('exportTruncated', { n: res.rows.length }));
      await exportSheet(tt('usageTitle'), columns, res.rows);
    } catch (e) {
      showApiError(e);
    } finally {
      setIsExporting(false);
    }
  };
  const q = mine?.quota;
  const label = { display: 'block', fontSize: 12, color: '#666' } as const;
  const dateStyle = { height: 32, border: '1px solid #d9d9d9', borderRadius: 6, padding: '0 8px' } as const;

  return (
    <Card title={tt('usageTitle')}>
      {q ? (
        <p data-testid="usage-quantities">
          {tt('quantities', {
            total: q.totalQuantitySum,
            reserved: q.totalReserveQuantity,
            used: q.totalUseQuantity,
            remain: q.remainQuantity,
          })}
        </p>
      ) : null}
      <h4>{tt('myPackages')}</h4>
      <Table<AccountPackage>
        size="small"
        rowKey="id"
        pagination={false}
        scroll={{ x: true }}
        dataSource={mine?.packages ?? []}
        columns={[
          { title: tt('package'), render: (_, p) => nameOf(p) },
          {
            title: tt('source'),
            render: (_, p) =>
              p.source === 'group'
                ? tt('source_group', { name: p.fromCompanyName ?? '' })
                : tt('source_purchase'),
          },
          { title: tt('quantity'), dataIndex: 'quantity' },
          { title: tt('reserved'), dataIndex: 'reserved' },
          { title: tt('used'), dataIndex: 'used' },
          { title: tt('remainingCol'), dataIndex: 'remaining' },
          { title: tt('expiresAt'), render: (_, p) => formatTime(p.expiresAt, locale) },
          {
            title: tt('status'),
            render: (_, p) => <Tag color={PKG_STATUS_COLORS[p.status]}>{tt(`pkgStatus_${p.status}`)}</Tag>,
          },
        ]}
      />
      <form
        style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'end', margin: '16px 0' }}
        onSubmit={(e) => {
          e.preventDefault();
          search(form);
        }}
      >
        <div>
          <label htmlFor={ids.keyword} style={label}>
            {tt('keyword')}
          </label>
          <Input
            id={ids.keyword}
            value={form.keyword}
            onChange={(e) => setForm({ ...form, keyword: e.target.value })}
          />
        </div>
        <div style={{ minWidth: 130 }}>
          <span style={label}>{tt('state')}</span>
          <Select
            aria-label={tt('state')}
            style={{ width: '100%' }}
            value={form.state}
            onChange={(state: string) => setForm({ ...form, state })}
            options={[
              { value: '', label: tt('all') },
              ...(['reserved', 'used', 'released'] as const).map((s) => ({
                value: s,
                label: tt(`state_${s}`),
              })),
            ]}
          />
        </div>
        <div style={{ minWidth: 160 }}>
          <span style={label}>{tt('package')}</span>
          <Select
            aria-label={tt('package')}
            style={{ width: '100%' }}
            value={form.packageId}
            onChange={(packageId: string) => setForm({ ...form, packageId })}
            options={[
              { value: '', label: tt('all') },
              { value: 'starter', label: tt('starter') },
              ...(mine?.packages ?? []).map((p) => ({ value: p.id, label: `${nameOf(p)} (${p.orderNo})` })),
            ]}
          />
        </div>
        <div>
          <label htmlFor={ids.from} style={label}>
            {tt('dateRange')}
          </label>
          <input
            id={ids.from}
            type="date"
            value={form.dateFrom}
            onChange={(e) => setForm({ ...form, dateFrom: e.target.value })}
            style={dateStyle}
          />{' '}
          –{' '}
          <input
            id={ids.to}
            type="date"
            aria-label={`${tt('dateRange')} (2)`}
            value={form.dateTo}
            onChange={(e) => setForm({ ...form, dateTo: e.target.value })}
            style={dateStyle}
          />
        </div>
        <Button type="primary" htmlType="submit">
          {tt('search')}
        </Button>
        <Button onClick={() => search(emptyUsageFilters())}>{tt('reset')}</Button>
        <Button onClick={onExport} loading={isExporting}>
          {tt('export')}
        </Button>
        <Button onClick={() => navigate(paths.manageProductList)}>{tt('backToPackages')}</Button>
      </form>
      {notice ? <Alert type="info" title={notice} style={{ marginBottom: 12 }} /> : null}
      <div data-testid="usage-table">
        <Table<UsageRow>
          size="small"
          rowKey="flowId"
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: tt('noUsage') }}
          dataSource={page?.list ?? []}
          columns={columns.map((c, i) => ({
            key: i,
            title: c.title,
            render: (_: unknown, r: UsageRow) => c.value(r),
          }))}
        />
      </div>
      <div style={{ marginTop: 12 }}>
        <Pager total={page?.total ?? 0} current={pageNum} onChange={(p) => setPageNum(p)} />
      </div>
    </Card>
  );
}
