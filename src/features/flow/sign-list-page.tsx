import Alert from 'antd/es/alert';
import { ccTexts } from '@/components/cc/cc-texts.ts';
import { CopiedList } from './copied-list.tsx';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Tabs from 'antd/es/tabs';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useId, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import {
  type FlowSummary,
  listLaunchedFlows,
  listPendingSignatures,
  type PendingItem,
  PartyStatus,
  roomQuery,
  saveRoomLogin,
  signingRoomLogin,
} from '@/api/flow.ts';
import { ApiError } from '@/api/http.ts';
import { loginRedirect, paths } from '@/config/paths.ts';
import { Pager } from '@/components/pager.tsx';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { allPages, exportSheet } from '@/lib/export-sheet.ts';
import { DEFAULT_PAGE_SIZE } from '@/lib/page.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { FlowDetailDrawer } from './flow-detail.tsx';
import { VoidedTags } from './rescission-panel.tsx';
import { TermTag, useFlowTerms } from './flow-term.tsx';
import { DateRangeFields } from './date-range-fields.tsx';
import {
  emptyFilters,
  flowCardStyle,
  type ListFilters,
  listRequest,
  sheetColumns,
  STATUS_COLORS,
} from './list-model.ts';
import { texts } from './texts.ts';
import { batchTexts } from './batch-texts.ts';
import { showApiError } from '@/api/http.ts';
import { formatTime } from '@/lib/format-time.ts';

type Kind = 'pending' | 'launched';
type Row = FlowSummary | PendingItem;

const FLOW_STATUSES = ['signing', 'completed', 'declined', 'expired', 'cancelled'] as const;
const PARTY_STATUSES = Object.values(PartyStatus);

function fetchPage(kind: Kind, f: ListFilters, pageNum: number, pageSize: number) {
  const base = listRequest(f, pageNum, pageSize);
  return kind === 'pending'
    ? listPendingSignatures({
        ...base,
        ...(f.status ? { status: f.status as PendingItem['partyStatus'] } : {}),
      })
    : listLaunchedFlows({ ...base, ...(f.status ? { status: f.status as FlowSummary['status'] } : {}) });
}

function FilterBar({
  kind,
  value,
  onSearch,
  onExport,
  isExporting,
}: {
  kind: Kind;
  value: ListFilters;
  onSearch: (f: ListFilters) => void;
  onExport: () => void;
  isExporting: boolean;
}) {
  const tt = useTexts(texts);
  const [f, setF] = useState(value);
  const ids = { keyword: useId() };
  useEffect(() => setF(value), [value]);
  const statuses = kind === 'pending' ? PARTY_STATUSES : FLOW_STATUSES;
  const prefix = kind === 'pending' ? 'party' : 'status';
  return (
    <form
      aria-label={tt('search')}
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(f);
      }}
      style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'flex-end', marginBottom: 12 }}
    >
      <div style={{ flex: '1 1 160px' }}>
        <label htmlFor={ids.keyword} style={{ display: 'block', fontSize: 12, color: '#666' }}>
          {tt('keyword')}
        </label>
        <Input
          id={ids.keyword}
          value={f.keyword}
          maxLength={50}
          onChange={(e) => setF({ ...f, keyword: e.target.value })}
        />
      </div>
      <div style={{ flex: '0 1 140px' }}>
        <span style={{ display: 'block', fontSize: 12, color: '#666' }}>{tt('status')}</span>
        <Select
          aria-label={tt('status')}
          style={{ width: '100%' }}
          value={f.status}
          onChange={(status: string) => setF({ ...f, status })}
          options={[
            { value: '', label: tt('allStatuses') },
            ...statuses.map((s) => ({ value: s, label: tt(`${prefix}.${s}` as 'status.signing') })),
          ]}
        />
      </div>
      <DateRangeFields
        value={f}
        onChange={(d) => setF({ ...f, ...d })}
        labels={{ from: tt('from'), to: tt('to') }}
      />
      <Button type="primary" htmlType="submit">
        {tt('search')}
      </Button>
      <Button onClick={() => onSearch(emptyFilters())}>{tt('reset')}</Button>
      <Button onClick={onExport} loading={isExporting}>
        {tt('export')}
      </Button>
    </form>
  );
}

function FlowList({ kind, isPhone }: { kind: Kind; isPhone: boolean }) {
  const tt = useTexts(texts);
  const bt = useTexts(batchTexts);
  const locale = useI18nStore((s) => s.locale);
  const navigate = useNavigate();
  const [filters, setFilters] = useState<ListFilters>(() => ({
    ...emptyFilters(),
    status: kind === 'pending' ? PartyStatus.Pending : '',
  }));
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ list: Row[]; total: number } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // ?flowId= opens that flow's detail (the bulk-send results link here)
  const [detail, setDetail] = useState<string | null>(useSearchParams()[0].get('flowId'));
  const [isExporting, setIsExporting] = useState(false);
  const terms = useFlowTerms(kind === 'launched' ? (data?.list.map((r) => r.flowId) ?? []) : []);

  const load = useCallback(async () => {
    setProblem(null);
    try {
      const res = await fetchPage(kind, filters, page, DEFAULT_PAGE_SIZE);
      setData({ list: res.list, total: res.total });
    } catch (e) {
      setProblem(e instanceof ApiError ? e.message : String(e));
    }
  }, [kind, filters, page]);
  useEffect(() => {
    void load();
  }, [load]);

  const openRoom = async (row: PendingItem) => {
    try {
      const login = await signingRoomLogin({ flowId: row.flowId, partyId: row.partyId });
      saveRoomLogin(login);
      navigate(`${paths.signingRoomTransition}${roomQuery(login)}`);
    } catch (e) {
      showApiError(e);
    }
  };

  const doExport = async () => {
    setIsExporting(true);
    try {
      const rows = await allPages<Row>((pageNum, pageSize) => fetchPage(kind, filters, pageNum, pageSize));
      await exportSheet(
        tt(kind === 'pending' ? 'sheetPending' : 'sheetLaunched'),
        sheetColumns(tt as (k: string) => string, locale, kind),
        rows,
      );
    } catch (e) {
      showApiError(e);
    } finally {
      setIsExporting(false);
    }
  };

  return (
    <section aria-label={kind === 'pending' ? tt('pendingTitle') : tt('launchedTitle')}>
      <FilterBar
        kind={kind}
        value={filters}
        onSearch={(f) => {
          setFilters(f);
          setPage(1);
        }}
        onExport={doExport}
        isExporting={isExporting}
      />
      {kind === 'pending' ? (
        <div style={{ marginBottom: 12 }}>
          <Button onClick={() => navigate(isPhone ? paths.mobileBatchSign : paths.batchSign)}>
            {bt('entry')}
          </Button>
        </div>
      ) : null}
      {problem ? <Alert type="error" title={problem} /> : null}
      {data && data.list.length === 0 ? (
        <Empty description={kind === 'pending' ? tt('emptyPending') : tt('emptyLaunched')}>
          {kind === 'launched' ? (
            <Button type="primary" onClick={() => navigate(paths.manageQuicklyFileUpload)}>
              {tt('launch')}
            </Button>
          ) : null}
        </Empty>
      ) : null}
      <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {data?.list.map((row) => {
          const pending = 'partyId' in row ? (row as PendingItem) : null;
          const status =
            pending && kind === 'pending' ? `party.${pending.partyStatus}` : `status.${row.status}`;
          return (
            <li key={pending ? pending.partyId : row.flowId}>
              <article aria-label={row.title} style={flowCardStyle(isPhone)}>
                <div style={{ flex: 1, minWidth: 0 }}>
                  <div style={{ fontWeight: 600, wordBreak: 'break-word' }}>
                    {row.title}{' '}
                    <Tag
                      color={STATUS_COLORS[pending && kind === 'pending' ? pending.partyStatus : row.status]}
                    >
                      {tt(status as 'status.signing')}
                    </Tag>
                    {kind === 'launched' ? <TermTag term={terms.get(row.flowId)} /> : null}
                    {row.awaitingApproval ? (
                      <Tag color="purple" data-testid="awaiting-approval">
                        {tt('awaitingApproval')}
                      </Tag>
                    ) : null}
                    <VoidedTags flow={row} />
                  </div>
                  <div
                    style={{
                      color: '#666',
                      fontSize: 12,
                      display: 'flex',
                      flexWrap: 'wrap',
                      gap: '2px 12px',
                    }}
                  >
                    <span>
                      {tt('initiator', { name: row.initiatorCompanyName ?? row.initiatorName ?? '' })}
                    </span>
                    <span>{tt('created', { time: formatTime(row.createdAt, locale) })}</span>
                    <span>{tt('deadline', { time: formatTime(row.deadline, locale) })}</span>
                    <span>{tt('progress', { signed: row.signedCount, all: row.partyCount })}</span>
                  </div>
                  <div style={{ color: '#999', fontSize: 12, wordBreak: 'break-all' }}>
                    {tt('docs', { names: row.documentNames.join(', ') })}
                  </div>
                </div>
                <div style={{ display: 'flex', gap: 8 }}>
                  {pending && pending.partyStatus === PartyStatus.Pending && row.status === 'signing' ? (
                    <Button type="primary" onClick={() => void openRoom(pending)}>
                      {tt('sign')}
                    </Button>
                  ) : null}
                  <Button onClick={() => setDetail(row.flowId)}>{tt('view')}</Button>
                </div>
              </article>
            </li>
          );
        })}
      </ul>
      {data && data.total > 0 ? (
        <Pager total={data.total} current={page} onChange={(p) => setPage(p)} />
      ) : null}
      <FlowDetailDrawer flowId={detail} onClose={() => setDetail(null)} onChanged={() => void load()} />
    </section>
  );
}

/**
 * /signList, /pcSignList and /mobile/signList: what waits for the user's signature and, on a second tab, the
 * documents the user's account launched (chosen here rather than on /manage/home, which another issue builds:
 * a signer finds both in one place, on PC and phone). Visitors are asked to log in.
 */
export default function SignListPage() {
  const tt = useTexts(texts);
  const ct = useTexts(ccTexts);
  const { pathname } = useLocation();
  const [search, setSearch] = useSearchParams();
  const isLoggedIn = useSessionStore((s) => s.userInfo !== null);
  const navigate = useNavigate();
  const isPhone = pathname === paths.mobileSignList;
  const asked = search.get('tab');
  const tab = asked === 'launched' || asked === 'copied' ? asked : 'pending';

  if (!isLoggedIn) {
    return (
      <main style={{ maxWidth: 480, margin: '48px auto', padding: 16, textAlign: 'center' }}>
        <p>{tt('needLogin')}</p>
        <Button
          type="primary"
          onClick={() => navigate(loginRedirect(isPhone ? paths.mobileLogin : paths.loginPage, pathname))}
        >
          {tt('login')}
        </Button>
      </main>
    );
  }

  return (
    <main style={{ padding: isPhone ? 8 : 24, maxWidth: 1100, margin: '0 auto' }}>
      <Tabs
        activeKey={tab}
        onChange={(key) => setSearch(key === 'pending' ? {} : { tab: key }, { replace: true })}
        items={[
          {
            key: 'pending',
            label: tt('tabPending'),
            children: <FlowList kind="pending" isPhone={isPhone} />,
          },
          {
            key: 'launched',
            label: tt('tabLaunched'),
            children: <FlowList kind="launched" isPhone={isPhone} />,
          },
          { key: 'copied', label: ct('tabCopied'), children: <CopiedList isPhone={isPhone} /> },
        ]}
      />
    </main>
  );
}
