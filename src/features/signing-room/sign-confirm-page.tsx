import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import Tag from 'antd/es/tag';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { auditReportUrl, documentUrl, signedPdfUrl } from '@/api/document.ts';
import { type FlowDetail, FlowStatus, getFlowDetail, roomQuery, roomTokenFor } from '@/api/flow.ts';
import { paths } from '@/config/paths.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { formatTime, showApiError } from './parts.tsx';
import { texts } from './texts.ts';

/** A download link: a plain GET of the API (cookies or the room token authorise it). */
function Download({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <Button
      href={href}
      target="_blank"
      rel="noopener"
      download
      block
      style={{ marginBottom: 8, whiteSpace: 'normal', height: 'auto' }}
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
    <main style={{ maxWidth: 640, margin: '0 auto', padding: '24px 16px' }}>
      <Result
        status={result === 'declined' ? 'warning' : 'success'}
        title={headline}
        subTitle={<span data-testid="flow-state">{sub}</span>}
      />
      {problem ? <Alert type="error" title={problem} /> : null}
      {flow ? (
        <section aria-label={tt('documents')}>
          <h2 style={{ fontSize: 16 }}>{flow.title}</h2>
          <ul style={{ paddingLeft: 18 }}>
            {flow.steps.flatMap((s) =>
              s.parties.map((p) => (
                <li key={p.partyId} style={{ marginBottom: 4 }}>
                  {p.companyName ? `${p.companyName} · ` : ''}
                  {p.name ?? p.phoneMasked} <Tag>{tt(`party.${p.status}`)}</Tag>
                  {p.signedAt ? (
                    <span style={{ color: '#999' }}>{formatTime(p.signedAt, locale)}</span>
                  ) : null}
                </li>
              )),
            )}
          </ul>
          {flow.documents.map((d) =>
            isCompleted ? (
              <Download key={d.documentId} href={signedPdfUrl(flow.flowId, d.documentId, token)}>
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
      <div style={{ display: 'flex', gap: 16, justifyContent: 'center', marginTop: 16 }}>
        {partyId && flowId ? (
          <Link to={`${paths.signingRoomTransition}${roomQuery({ flowId, partyId })}`}>
            {tt('backToRoom')}
          </Link>
        ) : null}
        {isLoggedIn ? <Link to={paths.signList}>{tt('toList')}</Link> : null}
      </div>
    </main>
  );
}
