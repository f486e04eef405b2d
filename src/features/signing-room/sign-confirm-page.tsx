import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import Tag from 'antd/es/tag';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { auditReportUrl, documentUrl, signedPdfUrl } from '@/api/document.ts';
import { type FlowDetail, FlowStatus, getFlowDetail, roomQuery, roomTokenFor } from '@/api/flow.ts';
import { paths } from '@/config/paths.ts';
import { PRIMARY_COLOR } from '@/lib/theme.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { formatTime } from '@/lib/format-time.ts';

/** Tag colours of a party's status on the result card. */
const PARTY_COLORS: Record<string, string> = {
  signed: 'green',
  pending: 'blue',
  waiting: 'default',
  declined: 'red',
  closed: 'default',
};

/** The links under the card: touch-sized (44 px), styled as outlined buttons. */
const RESULT_LINK_CSS = `.result-link{display:inline-flex;align-items:center;min-height:44px;padding:0 16px;border:1px solid #d9d9d9;border-radius:6px;color:inherit;background:#fff}.result-link:hover{border-color:${PRIMARY_COLOR};color:${PRIMARY_COLOR}}`;

/** A download link: a plain GET of the API (cookies or the room token authorise it). */
function Download({ href, children, isMain }: { href: string; children: React.ReactNode; isMain?: boolean }) {
  return (
    <Button
      type={isMain ? 'primary' : 'default'}
      href={href}
      target="_blank"
      rel="noopener"
      download
      block
      style={{ marginBottom: 8, whiteSpace: 'normal', height: 'auto', minHeight: 44 }}
    >
      {children}
    </Button>
  );
}

/** /sign_confirm: the result of signing or declining, the flow's state, and the downloads it allows. */
export default function SignConfirmPage() {
  const tt = useTexts(texts);
  const locale = useI18nStore((s) => s.locale);
  const [search] = useSearchParams();
  const flowId = search.get('flowId') ?? '';
  const partyId = search.get('partyId') ?? '';
  const result = search.get('result');
  const token = partyId ? (roomTokenFor(partyId) ?? undefined) : undefined;
  const isLoggedIn = useSessionStore((s) => s.userInfo !== null);
  const [flow, setFlow] = useState<FlowDetail | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!flowId) return;
    getFlowDetail({ flowId, roomToken: token })
      .then(setFlow)
      .catch((e: unknown) => setProblem(showApiError(e)));
  }, [flowId, token]);

  const isCompleted = flow?.status === FlowStatus.Completed;
  const headline =
    result === 'declined'
      ? tt('resultDeclined')
      : result === 'signed'
        ? tt('resultSigned')
        : tt('resultTitle');
  const sub = !flow
    ? ''
    : isCompleted
      ? tt('resultCompleted')
      : flow.status === FlowStatus.Signing
        ? tt('resultWaiting', { signed: flow.signedCount, all: flow.partyCount })
        : tt('resultEnded', { status: tt(`status.${flow.status}`) });

  return (
    <main
      style={{ background: '#f5f5f5', minHeight: '100vh', padding: '24px 12px', boxSizing: 'border-box' }}
    >
      <section
        data-testid="sign-result-card"
        style={{
          maxWidth: 640,
          margin: '0 auto',
          background: '#fff',
          borderRadius: 8,
          boxShadow: '0 1px 4px rgba(0,0,0,0.08)',
          padding: '8px 16px 24px',
        }}
      >
        <Result
          status={result === 'declined' ? 'warning' : 'success'}
          title={headline}
          subTitle={<span data-testid="flow-state">{sub}</span>}
          style={{ padding: '24px 0 16px' }}
        />
        {problem ? <Alert type="error" title={problem} /> : null}
        {flow ? (
          <section aria-label={tt('documents')}>
            <h2 style={{ fontSize: 16, margin: '0 0 8px', wordBreak: 'break-word' }}>{flow.title}</h2>
            <ul style={{ listStyle: 'none', padding: 0, margin: '0 0 16px', borderTop: '1px solid #f0f0f0' }}>
              {flow.steps.flatMap((s) =>
                s.parties.map((p) => (
                  <li
                    key={p.partyId}
                    data-testid="result-party"
                    style={{
                      display: 'flex',
                      flexWrap: 'wrap',
                      alignItems: 'center',
                      gap: 8,
                      padding: '10px 0',
                      borderBottom: '1px solid #f0f0f0',
                    }}
                  >
                    <span style={{ flex: '1 1 160px', wordBreak: 'break-word' }}>
                      {p.companyName ? `${p.companyName} · ` : ''}
                      {p.name ?? p.phoneMasked}
                    </span>
                    <Tag color={PARTY_COLORS[p.status] ?? 'default'} style={{ marginInlineEnd: 0 }}>
                      {tt(`party.${p.status}`)}
                    </Tag>
                    {p.signedAt ? (
                      <span style={{ color: '#999', fontSize: 12, flexBasis: '100%' }}>
                        {formatTime(p.signedAt, locale)}
                      </span>
                    ) : null}
                  </li>
                )),
              )}
            </ul>
            {flow.documents.map((d) =>
              isCompleted ? (
                <Download key={d.documentId} href={signedPdfUrl(flow.flowId, d.documentId, token)} isMain>
                  {tt('downloadSigned', { name: d.name })}
                </Download>
              ) : (
                <Download key={d.documentId} href={documentUrl(d.documentId, token)}>
                  {tt('downloadCurrent', { name: d.name })}
                </Download>
              ),
            )}
            {isCompleted ? (
              <Download href={auditReportUrl(flow.flowId, token)}>{tt('downloadReport')}</Download>
            ) : null}
          </section>
        ) : null}
        <style>{RESULT_LINK_CSS}</style>
        <nav style={{ display: 'flex', flexWrap: 'wrap', gap: 12, justifyContent: 'center', marginTop: 16 }}>
          {partyId && flowId ? (
            <Link
              className="result-link"
              to={`${paths.signingRoomTransition}${roomQuery({ flowId, partyId })}`}
            >
              {tt('backToRoom')}
            </Link>
          ) : null}
          {isLoggedIn ? (
            <Link className="result-link" to={paths.signList}>
              {tt('toList')}
            </Link>
          ) : null}
        </nav>
      </section>
    </main>
  );
}
