import Button from 'antd/es/button';
import { Link } from 'react-router-dom';
import type { FlowSummary, PendingItem } from '@/api/flow.ts';
import { CountUp } from '@/components/count-up.tsx';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { workspaceTexts } from './texts.ts';
import type { HomeData } from './use-home-data.ts';
import { formatDate } from '@/lib/format-time.ts';

const card: React.CSSProperties = {
  background: '#fff',
  border: '1px solid #f0f0f0',
  borderRadius: 8,
  padding: 16,
  minWidth: 0,
  overflowWrap: 'anywhere',
};

/** The three figures: pending count, in progress count, remaining signings (animated, SPEC §5/§9). */
export function HomeFigures({ data }: { data: HomeData }) {
  const tt = useTexts(workspaceTexts);
  const figures = [
    { id: 'pending', label: tt('pending'), value: data.pending.total, color: '#ec1c23' },
    { id: 'in-progress', label: tt('inProgress'), value: data.inProgress.total, color: '#1677ff' },
    { id: 'remaining', label: tt('remaining'), value: data.remaining, color: '#52c41a' },
  ];
  return (
    <section
      style={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 12 }}
      aria-label={tt('homeTitle')}
    >
      {figures.map((f) => (
        <div
          key={f.id}
          style={{ ...card, textAlign: 'center' }}
          data-testid={`home-${f.id}`}
          data-value={f.value}
        >
          <div style={{ fontSize: 28, fontWeight: 600 }}>
            <CountUp end={f.value} color={f.color} />
          </div>
          <div style={{ color: '#666' }}>{f.label}</div>
        </div>
      ))}
    </section>
  );
}

/** A preview of the pending list: title, initiator, deadline, a Sign button. */
export function PendingPreview({
  items,
  allLink,
  onOpen,
}: {
  items: PendingItem[];
  allLink: string;
  onOpen: (row: PendingItem) => void;
}) {
  const tt = useTexts(workspaceTexts);
  const locale = useI18nStore((s) => s.locale);
  return (
    <section style={card} aria-labelledby="home-pending-title">
      <header style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
        <h2 id="home-pending-title" style={{ fontSize: 16, margin: 0 }}>
          {tt('pending')}
        </h2>
        <Link to={allLink}>{tt('seeAll')}</Link>
      </header>
      {items.length === 0 ? (
        <p style={{ color: '#999' }}>{tt('noPending')}</p>
      ) : (
        <ul style={{ listStyle: 'none', padding: 0, margin: '8px 0 0' }}>
          {items.map((row) => (
            <li
              key={row.partyId}
              style={{
                display: 'flex',
                gap: 8,
                alignItems: 'center',
                padding: '8px 0',
                borderTop: '1px solid #f5f5f5',
              }}
            >
              <div style={{ flex: 1, minWidth: 0 }}>
                <div style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {row.title}
                </div>
                <div style={{ color: '#999', fontSize: 12 }}>
                  {row.initiatorCompanyName ?? row.initiatorName ?? ''} ·{' '}
                  {tt('deadline', { date: formatDate(row.deadline, locale) })}
                </div>
              </div>
              <Button size="small" type="primary" onClick={() => onOpen(row)}>
                {tt('sign')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A preview of the documents being signed, with how many parties signed. */
export function InProgressPreview({ items, allLink }: { items: FlowSummary[]; allLink: string }) {
  const tt = useTexts(workspaceTexts);
  const locale = useI18nStore((s) => s.locale);
  return (
    <section style={card} aria-labelledby="home-progress-title">
      <header style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
        <h2 id="home-progress-title" style={{ fontSize: 16, margin: 0 }}>
          {tt('inProgress')}
        </h2>
        <Link to={allLink}>{tt('seeAll')}</Link>
      </header>
      {items.length === 0 ? (
        <p style={{ color: '#999' }}>{tt('noInProgress')}</p>
      ) : (
        <ul style={{ listStyle: 'none', padding: 0, margin: '8px 0 0' }}>
          {items.map((flow) => (
            <li key={flow.flowId} style={{ padding: '8px 0', borderTop: '1px solid #f5f5f5' }}>
              <div style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                {flow.title}
              </div>
              <div style={{ color: '#999', fontSize: 12 }}>
                {tt('signedOf', { signed: flow.signedCount, parties: flow.partyCount })} ·{' '}
                {tt('deadline', { date: formatDate(flow.deadline, locale) })}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function LoadProblem({ problem, onRetry }: { problem: string; onRetry: () => void }) {
  const tt = useTexts(workspaceTexts);
  return (
    <p role="alert">
      {tt('loadFailed', { reason: problem })} <Button onClick={onRetry}>{tt('retry')}</Button>
    </p>
  );
}
