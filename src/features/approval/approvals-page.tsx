import Empty from 'antd/es/empty';
import Tabs from 'antd/es/tabs';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { type ApprovalSummary, listApprovals } from '@/api/approval.ts';
import { showApiError } from '@/api/http.ts';
import { Pager } from '@/components/pager.tsx';
import { DEFAULT_PAGE_SIZE } from '@/lib/page.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { LaunchRuleButton } from './launch-rule.tsx';
import * as UI from './parts.tsx';

type Scope = 'toMe' | 'mine' | 'all';
const SCOPES: readonly Scope[] = ['toMe', 'mine', 'all'];

/**
 * /manage/approvals and /mobile/approvals: the company's approval requests (seal uses and launches, tagged) to the
 * caller (pending first), the caller's own, and (administrator) all of them; one opens its detail. On the PC the
 * administrator sets the launch approval rule here.
 */
export default function ApprovalsPage() {
  const tt = UI.useApprovalTexts();
  const navigate = useNavigate();
  const routes = UI.useApprovalRoutes();
  const isAdmin = useSessionStore((s) => s.userInfo?.isAdmin === true);
  const [search, setSearch] = useSearchParams();
  const asked = search.get('scope') as Scope | null;
  const scope: Scope = asked && SCOPES.includes(asked) && (asked !== 'all' || isAdmin) ? asked : 'toMe';
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ list: ApprovalSummary[]; total: number } | null>(null);

  const load = useCallback(async () => {
    setData(null);
    try {
      setData(await listApprovals({ scope, pageNum: page, pageSize: DEFAULT_PAGE_SIZE }));
    } catch (e) {
      showApiError(e);
      setData({ list: [], total: 0 });
    }
  }, [scope, page]);
  useEffect(() => {
    void load();
  }, [load]);

  const tabs = [
    { key: 'toMe', label: tt('tabToMe') },
    { key: 'mine', label: tt('tabMine') },
    ...(isAdmin ? [{ key: 'all', label: tt('tabAll') }] : []),
  ];

  return (
    <main className="approval-page">
      <UI.ApprovalStyles />
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
        <h1 style={{ flex: 1 }}>{tt('title')}</h1>
        {isAdmin && !routes.isPhone ? <LaunchRuleButton /> : null}
      </div>
      <Tabs
        activeKey={scope}
        items={tabs}
        onChange={(key) => {
          setPage(1);
          setSearch({ scope: key }, { replace: true });
        }}
      />
      {data === null ? <p>{tt('loading')}</p> : null}
      {data && data.list.length === 0 ? <Empty description={tt('empty')} /> : null}
      <div className="approval-list">
        {(data?.list ?? []).map((a) => (
          <button
            type="button"
            key={a.approvalId}
            className="approval-item"
            data-testid="approval-item"
            aria-label={a.flowTitle}
            onClick={() => navigate(routes.detail(a.approvalId))}
          >
            {a.kind === 'seal' ? (
              <UI.SealImage url={a.sealImageUrl} name={a.sealName} size={routes.isPhone ? 44 : 56} />
            ) : null}
            <span className="approval-item-body">
              <span className="approval-item-title">{a.flowTitle}</span>
              <span className="approval-muted">
                {a.kind === 'seal' ? `${a.sealName} · ` : ''}
                {tt('requester', { name: a.requesterName ?? a.requesterPhoneMasked })}
                {a.amount !== null ? ` · ${tt('amount', { amount: UI.formatAmount(a.amount) })}` : ''}
              </span>
              <UI.RequestLine a={a} />
            </span>
            <span style={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: 4 }}>
              <UI.KindTag kind={a.kind} />
              <UI.StatusTag status={a.status} />
              {a.canDecide ? (
                <strong style={{ color: '#ec1c23', fontSize: 12 }}>{tt('yourTurn')}</strong>
              ) : null}
            </span>
          </button>
        ))}
      </div>
      {data && data.total > DEFAULT_PAGE_SIZE ? (
        <div style={{ marginTop: 12 }}>
          <Pager total={data.total} current={page} onChange={(p) => setPage(p)} />
        </div>
      ) : null}
    </main>
  );
}
