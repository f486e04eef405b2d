import Alert from 'antd/es/alert';
import Tag from 'antd/es/tag';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { type CcView, ccDocumentUrl, ccReportUrl, getCcView } from '@/api/cc.ts';
import { ApiError } from '@/api/http.ts';
import { ccTexts } from '@/components/cc/cc-texts.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { formatTime } from '@/lib/format-time.ts';

const STATUS_COLORS: Record<CcView['status'], string> = {
  draft: 'default',
  signing: 'blue',
  completed: 'green',
  declined: 'red',
  expired: 'default',
  cancelled: 'default',
};

/**
 * `/ccView/:ccToken`: what a copy recipient's link opens (抄送, issue 29), without a login: the contract's
 * title, parties and their progress, its documents (signed once completed) and audit report. Read only.
 */
export default function CcViewPage() {
  const tt = useTexts(ccTexts);
  const locale = useI18nStore((s) => s.locale);
  const token = useParams().ccToken ?? '';
  const [view, setView] = useState<CcView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    getCcView({ ccToken: token }).then(setView, (e: unknown) =>
      setProblem(e instanceof ApiError ? e.message : String(e)),
    );
  }, [token]);

  const isCompleted = view?.status === 'completed';
  return (
    <main
      style={{
        maxWidth: 720,
        margin: '0 auto',
        padding: 16,
        boxSizing: 'border-box',
        wordBreak: 'break-word',
      }}
    >
      <h1 style={{ fontSize: 20 }}>{tt('viewTitle')}</h1>
      {problem ? <Alert type="error" title={problem} /> : null}
      {!view && !problem ? <p>{tt('loading')}</p> : null}
      {view ? (
        <>
          <h2 style={{ fontSize: 18 }} data-testid="cc-title">
            {view.title} <Tag color={STATUS_COLORS[view.status]}>{tt(`status.${view.status}`)}</Tag>
          </h2>
          <p style={{ color: '#666' }}>{tt('viewHello', { name: view.recipientName })}</p>
          <p style={{ color: '#666' }}>
            {tt('from', { name: view.initiatorCompanyName ?? view.initiatorName ?? '' })} ·{' '}
            {formatTime(view.createdAt, locale)}
          </p>
          <section aria-label={tt('parties')}>
            <h3 style={{ fontSize: 15 }}>{tt('parties')}</h3>
            <ul style={{ paddingLeft: 18 }}>
              {view.parties.map((p, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the parties come in their fixed order
                <li key={i} data-testid="cc-party">
                  {tt('step', { n: p.step })} · {p.companyName ?? p.name ?? ''}{' '}
                  <Tag>{tt(`party.${p.status}`)}</Tag>
                  {p.signedAt ? (
                    <span style={{ color: '#999' }}>{formatTime(p.signedAt, locale)}</span>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
          <section aria-label={tt('documents')}>
            <h3 style={{ fontSize: 15 }}>{tt('documents')}</h3>
            {view.mayDownload ? (
              <div style={{ display: 'flex', flexDirection: 'column', gap: 6 }}>
                {view.documents.map((d) => (
                  <a key={d.documentId} href={ccDocumentUrl(token, d.documentId)} download>
                    {isCompleted
                      ? tt('downloadSigned', { name: d.name })
                      : tt('downloadCurrent', { name: d.name })}
                  </a>
                ))}
                {view.hasAuditReport ? (
                  <a href={ccReportUrl(token)} download>
                    {tt('downloadReport')}
                  </a>
                ) : null}
              </div>
            ) : (
              <Alert type="info" title={tt('noDocuments')} />
            )}
          </section>
        </>
      ) : null}
    </main>
  );
}
