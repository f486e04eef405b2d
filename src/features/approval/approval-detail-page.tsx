import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Segmented from 'antd/es/segmented';
import Tag from 'antd/es/tag';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { type ApprovalDetail, approvalDocumentUrl, decideApproval, getApproval } from '@/api/approval.ts';
import { showApiError } from '@/api/http.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { formatTime } from '@/lib/format-time.ts';
import { notify } from '@/lib/notify.ts';
import {
  ApprovalStyles,
  formatAmount,
  KindTag,
  RequestLine,
  SealImage,
  StatusTag,
  useApprovalRoutes,
  useApprovalTexts,
} from './parts.tsx';

const PdfViewer = lazy(() => import('@/components/pdf-viewer.tsx').then((m) => ({ default: m.PdfViewer })));

const APPROVER_COLORS = { approved: 'success', rejected: 'error', waiting: 'processing', not_yet: 'default' };

/**
 * /manage/approvals/:approvalId and /mobile/approvals/:approvalId: the contract exactly as it will be sealed, the
 * flow, the requester, the seal, the approvers and their decisions; an approver whose turn it is approves or
 * rejects (a rejection says why), after a confirmation.
 */
export default function ApprovalDetailPage() {
  const tt = useApprovalTexts();
  const locale = useI18nStore((s) => s.locale);
  const navigate = useNavigate();
  const routes = useApprovalRoutes();
  const { approvalId = '' } = useParams();
  const [detail, setDetail] = useState<ApprovalDetail | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [docIndex, setDocIndex] = useState(0);
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<'approve' | 'reject' | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setDetail(await getApproval({ approvalId }));
      setProblem(null);
    } catch (e) {
      setProblem(showApiError(e));
    }
  }, [approvalId]);
  useEffect(() => {
    void load();
  }, [load]);

  const doc = detail?.documents[docIndex] ?? detail?.documents[0];
  const url = useMemo(
    () => (doc && detail ? approvalDocumentUrl(detail.approvalId, doc.documentId) : ''),
    [doc, detail],
  );

  const ask = (decision: 'approve' | 'reject') => {
    if (decision === 'reject' && !comment.trim()) return setCommentError(tt('commentRequired'));
    setCommentError(null);
    setConfirming(decision);
  };
  const decide = async () => {
    if (!confirming) return;
    setIsBusy(true);
    try {
      const text = comment.trim();
      setDetail(
        await decideApproval({ approvalId, decision: confirming, ...(text ? { comment: text } : {}) }),
      );
      notify.success(tt(confirming === 'approve' ? 'approved' : 'rejected'), 2000);
      setComment('');
    } catch (e) {
      showApiError(e);
      await load();
    } finally {
      setIsBusy(false);
      setConfirming(null);
    }
  };

  const backButton = <Button onClick={() => navigate(routes.list)}>{tt('back')}</Button>;
  if (problem && !detail) {
    return (
      <main className="approval-page">
        <ApprovalStyles />
        <Alert type="warning" title={problem} style={{ marginBottom: 12 }} />
        {backButton}
      </main>
    );
  }
  if (!detail) {
    return (
      <main className="approval-page" aria-busy="true">
        <p>{tt('loading')}</p>
      </main>
    );
  }
  const d = detail;
  const name = (n: string | null) => n ?? tt('unknownName');
  const viewerHeight = routes.isPhone ? '60vh' : 'calc(100vh - 240px)';
  const isLaunch = d.kind === 'launch';

  return (
    <main className="approval-page">
      <ApprovalStyles />
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap', marginBottom: 8 }}>
        {backButton}
        <h1 style={{ margin: 0, flex: 1, minWidth: 200 }}>
          {tt(isLaunch ? 'launchDetailTitle' : 'detailTitle')}
        </h1>
        <KindTag kind={d.kind} />
        <StatusTag status={d.status} />
      </div>
      {d.voidReason ? (
        <Alert type="info" title={tt('voidReason', { reason: d.voidReason })} style={{ marginBottom: 12 }} />
      ) : null}
      <div className="approval-detail">
        <section aria-label={tt(isLaunch ? 'launchContract' : 'contract')} style={{ minWidth: 0 }}>
          <h2 style={{ fontSize: 15, margin: '0 0 8px' }}>{tt(isLaunch ? 'launchContract' : 'contract')}</h2>
          {d.documents.length > 1 ? (
            <Segmented
              style={{ marginBottom: 8, maxWidth: '100%', overflowX: 'auto' }}
              value={docIndex}
              onChange={(v) => setDocIndex(Number(v))}
              options={d.documents.map((x, i) => ({ label: x.name, value: i }))}
            />
          ) : null}
          {doc ? (
            <Suspense fallback={<div style={{ height: viewerHeight }} />}>
              <PdfViewer key={doc.documentId} url={url} label={doc.name} height={viewerHeight} />
            </Suspense>
          ) : null}
        </section>
        <div className="approval-side">
          <section className="approval-box" aria-label={tt('flow')}>
            <h2 data-testid="approval-flow-title">{d.flowTitle}</h2>
            <dl className="approval-facts">
              <dt>{tt(isLaunch ? 'launcher' : 'initiator')}</dt>
              <dd>
                {[d.initiatorName, d.initiatorCompanyName].filter(Boolean).join(' · ') || tt('unknownName')}
              </dd>
              {isLaunch ? (
                <>
                  <dt>{tt('parties')}</dt>
                  <dd>
                    <ul data-testid="approval-parties" style={{ margin: 0, paddingLeft: 16 }}>
                      {d.parties.map((p) => (
                        <li key={`${p.step}-${p.kind}-${p.companyName ?? ''}-${p.name ?? ''}`}>
                          {tt('partyLine', {
                            name: [p.companyName, p.name].filter(Boolean).join(' · ') || tt('unknownName'),
                            step: String(p.step),
                          })}
                        </li>
                      ))}
                    </ul>
                  </dd>
                </>
              ) : (
                <>
                  <dt>{tt('party')}</dt>
                  <dd>{tt('partyStep', { company: d.companyName, step: String(d.partyStep) })}</dd>
                </>
              )}
              {d.amount !== null ? (
                <>
                  <dt>{tt('amountLabel')}</dt>
                  <dd>¥{formatAmount(d.amount)}</dd>
                </>
              ) : null}
              {isLaunch ? null : (
                <>
                  <dt>{tt('seal')}</dt>
                  <dd style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
                    <SealImage url={d.sealImageUrl} name={d.sealName} size={48} />
                    {d.sealName}
                  </dd>
                </>
              )}
              <dt>{tt('mode')}</dt>
              <dd>{tt(`mode.${d.mode}`)}</dd>
            </dl>
            <p style={{ margin: '8px 0 0' }}>
              <RequestLine a={d} withRequester />
            </p>
          </section>
          <section className="approval-box" aria-label={tt('approvers')}>
            <h2>{tt('approvers')}</h2>
            <ol style={{ margin: 0, paddingLeft: 20 }}>
              {d.approvers.map((a) => (
                <li key={a.userId} style={{ marginBottom: 4 }}>
                  {name(a.name)} <Tag color={APPROVER_COLORS[a.state]}>{tt(`approver.${a.state}`)}</Tag>
                </li>
              ))}
            </ol>
          </section>
          <section className="approval-box" aria-label={tt('decisions')}>
            <h2>{tt('decisions')}</h2>
            {d.decisions.length === 0 ? <p className="approval-muted">{tt('noDecision')}</p> : null}
            {d.decisions.map((x) => (
              <div key={`${x.userId}-${x.at}`} data-testid="approval-decision" style={{ marginBottom: 8 }}>
                <strong>
                  {tt(x.decision === 'approve' ? 'decisionApprove' : 'decisionReject', {
                    name: name(x.name),
                  })}
                </strong>{' '}
                <span className="approval-muted">{formatTime(x.at, locale)}</span>
                {x.comment ? <div style={{ whiteSpace: 'pre-wrap' }}>{x.comment}</div> : null}
              </div>
            ))}
          </section>
          {d.canDecide && d.status === 'pending' ? (
            <section className="approval-box" aria-label={tt('yourTurn')}>
              <label htmlFor="approval-comment" style={{ display: 'block', marginBottom: 4 }}>
                {tt('comment')}
              </label>
              <Input.TextArea
                id="approval-comment"
                rows={3}
                maxLength={500}
                value={comment}
                status={commentError ? 'error' : undefined}
                placeholder={tt('commentHelp')}
                onChange={(e) => {
                  setComment(e.target.value);
                  setCommentError(null);
                }}
              />
              {commentError ? (
                <div role="alert" style={{ color: '#ff4d4f', fontSize: 13 }}>
                  {commentError}
                </div>
              ) : null}
              <div className="approval-actions">
                <Button danger size="large" onClick={() => ask('reject')}>
                  {tt('reject')}
                </Button>
                <Button type="primary" size="large" onClick={() => ask('approve')}>
                  {tt('approve')}
                </Button>
              </div>
            </section>
          ) : null}
        </div>
      </div>
      <Modal
        open={confirming !== null}
        title={confirming === 'reject' ? tt('reject') : tt('approve')}
        okText={tt('confirm')}
        cancelText={tt('cancel')}
        okButtonProps={{ danger: confirming === 'reject', loading: isBusy }}
        onOk={() => void decide()}
        onCancel={() => setConfirming(null)}
        destroyOnHidden
      >
        <p>
          {confirming === 'reject'
            ? tt(isLaunch ? 'confirmRejectLaunch' : 'confirmReject')
            : tt(isLaunch ? 'confirmApproveLaunch' : 'confirmApprove')}
        </p>
      </Modal>
    </main>
  );
}
