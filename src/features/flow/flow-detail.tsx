import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useId, useState } from 'react';
import { auditReportUrl, documentUrl, signedPdfUrl } from '@/api/document.ts';
import { fieldAttachmentUrl } from '@/api/fields.ts';
import {
  type AuditTrail,
  cancelFlow,
  type FlowDetail,
  FlowStatus,
  getAuditTrail,
  getFlowDetail,
  remindSigners,
} from '@/api/flow.ts';
import { ApiError } from '@/api/http.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { CcPanel } from './cc-panel.tsx';
import { FlowTermSection } from './flow-term.tsx';
import { STATUS_COLORS } from './list-model.ts';
import { progressTexts } from './progress-texts.ts';
import { ReassignPanel } from './reassign-panel.tsx';
import { RescissionPanel, VoidedTags } from './rescission-panel.tsx';
import { texts } from './texts.ts';
import { formatTime } from '@/lib/format-time.ts';
import { FlowCommentsSection } from './flow-comments-section.tsx';
import { RevisionVersions } from '@/components/revisions/revision-versions.tsx';
import { ReviseButton } from './revise-dialog.tsx';

const PROGRESS_COLORS: Record<FlowDetail['steps'][number]['parties'][number]['progress'], string> = {
  waiting: 'default',
  sent: 'blue',
  opened: 'cyan',
  onboarding: 'orange',
  signed: 'green',
  refused: 'red',
  closed: 'default',
};

/** The fields the parties fill (issue 28): party, label, value or attachment, when signed. */
function FilledFields({ flow }: { flow: FlowDetail }) {
  const tt = useTexts(texts);
  const locale = useI18nStore((s) => s.locale);
  const parties = flow.steps.flatMap((s) => s.parties);
  const partyName = (id: string) => {
    const p = parties.find((x) => x.partyId === id);
    return p ? [p.companyName, p.name].filter(Boolean).join(' · ') || p.phoneMasked : '';
  };
  const fields = flow.fields ?? [];
  const cell = {
    padding: '4px 8px',
    borderBottom: '1px solid #f0f0f0',
    textAlign: 'left',
    verticalAlign: 'top',
  } as const;
  return (
    <section aria-label={tt('filledFields')} data-testid="filled-fields">
      <h3 style={{ fontSize: 15 }}>{tt('filledFields')}</h3>
      {fields.length === 0 ? (
        <p style={{ color: '#999' }}>{tt('filledFieldsEmpty')}</p>
      ) : (
        <table style={{ width: '100%', borderCollapse: 'collapse', fontSize: 13 }}>
          <thead>
            <tr>
              <th style={cell}>{tt('fieldParty')}</th>
              <th style={cell}>{tt('fieldLabel')}</th>
              <th style={cell}>{tt('fieldValue')}</th>
              <th style={cell}>{tt('fieldSignedAt')}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <tr key={f.fieldId} data-testid="filled-field">
                <td style={cell}>{partyName(f.partyId)}</td>
                <td style={cell}>{f.label}</td>
                <td style={{ ...cell, overflowWrap: 'anywhere' }}>
                  {f.attachment ? (
                    <a href={fieldAttachmentUrl(f.fieldId)} target="_blank" rel="noopener" download>
                      {f.attachment.name}
                    </a>
                  ) : f.kind === 'checkbox' && f.value !== null ? (
                    tt(f.value === true ? 'fieldTicked' : 'fieldNotTicked')
                  ) : f.value !== null && f.value !== '' ? (
                    String(f.value)
                  ) : (
                    <span style={{ color: '#999' }}>{tt('fieldNotFilled')}</span>
                  )}
                </td>
                <td style={cell}>
                  {f.signedAt ? (
                    formatTime(f.signedAt, locale)
                  ) : f.value !== null || f.attachment ? (
                    <span style={{ color: '#999' }}>{tt('fieldSavedOnly')}</span>
                  ) : (
                    ''
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const apiMessage = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

/** A flow's parties and states, its audit trail, downloads, and the initiator's cancel and remind. */
export function FlowDetailDrawer({
  flowId,
  onClose,
  onChanged,
}: {
  flowId: string | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const tt = useTexts(texts);
  const pt = useTexts(progressTexts);
  const locale = useI18nStore((s) => s.locale);
  const reasonId = useId();
  const [flow, setFlow] = useState<FlowDetail | null>(null);
  const [trail, setTrail] = useState<AuditTrail | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isCancelOpen, setIsCancelOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [linkedId, setLinkedId] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!flowId) return;
    setProblem(null);
    try {
      const [f, a] = await Promise.all([getFlowDetail({ flowId }), getAuditTrail({ flowId })]);
      setFlow(f);
      setTrail(a);
    } catch (e) {
      setProblem(apiMessage(e));
    }
  }, [flowId]);

  useEffect(() => {
    setFlow(null);
    setTrail(null);
    void load();
  }, [load]);

  const cancel = async () => {
    if (!flow) return;
    if (!reason.trim()) return setReasonError(tt('reasonRequired'));
    setIsBusy(true);
    try {
      await cancelFlow({ flowId: flow.flowId, reason: reason.trim() });
      notify.success(tt('cancelled'), 2000);
      setIsCancelOpen(false);
      await load();
      onChanged();
    } catch (e) {
      setReasonError(apiMessage(e));
    } finally {
      setIsBusy(false);
    }
  };

  const remind = async () => {
    if (!flow) return;
    try {
      const { reminded } = await remindSigners({ flowId: flow.flowId });
      notify.success(tt('reminded', { count: reminded }), 2000);
      await load();
    } catch (e) {
      if (!(e instanceof ApiError && e.handled)) notify.error(apiMessage(e), 2000);
    }
  };

  const isCompleted = flow?.status === FlowStatus.Completed;
  const docName = (id: string) => flow?.documents.find((d) => d.documentId === id)?.name ?? id;

  return (
    <Drawer open={flowId !== null} onClose={onClose} title={tt('detailTitle')} size="large" destroyOnHidden>
      {problem ? <Alert type="error" title={problem} /> : null}
      {flow ? (
        <div className="flow-detail">
          <h2 style={{ fontSize: 18, marginTop: 0 }}>
            {flow.title} <Tag color={STATUS_COLORS[flow.status]}>{tt(`status.${flow.status}`)}</Tag>
            {flow.awaitingApproval ? (
              <Tag color="purple" data-testid="awaiting-approval">
                {tt('awaitingApproval')}
              </Tag>
            ) : null}
            <VoidedTags flow={flow} />
          </h2>
          <p style={{ color: '#666' }}>
            {tt('created', { time: formatTime(flow.createdAt, locale) })} ·{' '}
            {tt('deadline', { time: formatTime(flow.deadline, locale) })}
            {flow.nextRemindAt && flow.remindEveryDays ? (
              <>
                {' · '}
                {tt('nextRemind', { time: formatTime(flow.nextRemindAt, locale), n: flow.remindEveryDays })}
              </>
            ) : null}
          </p>
          {flow.endReason ? <Alert type="info" title={tt('endReason', { reason: flow.endReason })} /> : null}
          <div style={{ display: 'flex', gap: 8, margin: '12px 0', flexWrap: 'wrap' }}>
            {flow.mine.canRemind ? <Button onClick={remind}>{tt('remind')}</Button> : null}
            {flow.mine.canCancel ? (
              <Button
                danger
                onClick={() => {
                  setReason('');
                  setReasonError(null);
                  setIsCancelOpen(true);
                }}
              >
                {tt('cancelFlow')}
              </Button>
            ) : null}
          </div>
          <RescissionPanel
            key={`${flow.status}|${flow.voidedAt ?? ''}`}
            flow={flow}
            onOpen={setLinkedId}
            onChanged={() => {
              void load();
              onChanged();
            }}
          />
          <section aria-label={tt('parties')}>
            <h3 style={{ fontSize: 15 }}>{tt('parties')}</h3>
            {flow.steps.map((s) => (
              <div key={s.index} style={{ marginBottom: 8 }}>
                <div style={{ color: '#999', fontSize: 12 }}>{tt('step', { n: s.index + 1 })}</div>
                <ul style={{ margin: 0, paddingLeft: 18 }}>
                  {s.parties.map((p) => (
                    <li key={p.partyId} data-testid="party-progress">
                      {p.companyName ? `${p.companyName} · ` : ''}
                      {p.name ?? ''} {p.phoneMasked}{' '}
                      <Tag color={PROGRESS_COLORS[p.progress]}>{pt(`progress.${p.progress}`)}</Tag>{' '}
                      <span style={{ color: '#999', fontSize: 12 }}>
                        {[
                          p.sentAt ? pt('sentAt', { time: formatTime(p.sentAt, locale) }) : null,
                          p.openedAt ? pt('openedAt', { time: formatTime(p.openedAt, locale) }) : null,
                          p.onboardingAt
                            ? pt('onboardingAt', { time: formatTime(p.onboardingAt, locale) })
                            : null,
                          p.signedAt ? pt('signedAt', { time: formatTime(p.signedAt, locale) }) : null,
                          p.declinedAt ? pt('refusedAt', { time: formatTime(p.declinedAt, locale) }) : null,
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </span>
                      {p.declineReason ? (
                        <span> · {tt('endReason', { reason: p.declineReason })}</span>
                      ) : null}
                      {p.onboardingProblem && p.status === 'pending' ? (
                        <Alert
                          type="warning"
                          showIcon
                          style={{ marginTop: 4 }}
                          message={pt('stopped', {
                            problem: locale === 'zh-CN' ? p.onboardingProblem.zh : p.onboardingProblem.en,
                          })}
                        />
                      ) : null}
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </section>
          <FilledFields flow={flow} />
          <FlowCommentsSection flow={flow} />
          {flow.mine.isInitiator ? <CcPanel flowId={flow.flowId} isOpen={flow.status === 'signing'} /> : null}
          <ReassignPanel flow={flow} onChanged={load} />
          <RevisionVersions
            flowId={flow.flowId}
            reloadKey={trail?.entries.length}
            action={
              flow.mine.isInitiator && flow.status === 'signing' && !flow.awaitingApproval ? (
                <ReviseButton flow={flow} onRevised={() => void load()} />
              ) : null
            }
          />
          <FlowTermSection flowId={flow.flowId} status={flow.status} />
          <section style={{ margin: '12px 0', display: 'flex', flexDirection: 'column', gap: 6 }}>
            {flow.documents.map((d) => (
              <a
                key={d.documentId}
                href={isCompleted ? signedPdfUrl(flow.flowId, d.documentId) : documentUrl(d.documentId)}
                target="_blank"
                rel="noopener"
                download
              >
                {isCompleted
                  ? tt('downloadSigned', { name: d.name })
                  : tt('downloadCurrent', { name: d.name })}
              </a>
            ))}
            {isCompleted ? (
              <a href={auditReportUrl(flow.flowId)} target="_blank" rel="noopener" download>
                {tt('downloadReport')}
              </a>
            ) : null}
          </section>
          {trail ? (
            <section aria-label={tt('audit')}>
              <h3 style={{ fontSize: 15 }}>{tt('audit')}</h3>
              {trail.chains.map((c) => (
                <div key={c.documentId} style={{ fontSize: 12 }}>
                  {docName(c.documentId)}:{' '}
                  {c.isIntact ? (
                    <Tag color="green">{tt('chainOk')}</Tag>
                  ) : (
                    <Tag color="red">{tt('chainBroken', { seq: c.brokenAtSeq ?? '?' })}</Tag>
                  )}
                </div>
              ))}
              <ol style={{ paddingLeft: 18, fontSize: 13 }}>
                {trail.entries.map((e) => (
                  <li key={`${e.documentId}-${e.seq}`} style={{ marginBottom: 6 }}>
                    <strong>{tt(`event.${e.event}`)}</strong> · {e.actorCompany ? `${e.actorCompany} · ` : ''}
                    {e.actor} · {formatTime(e.at, locale)}
                    {e.ip ? ` · ${e.ip}` : ''}
                    {e.detail ? <div style={{ color: '#666' }}>{e.detail}</div> : null}
                    {e.hashAfter ? (
                      <div style={{ color: '#999', fontSize: 11, wordBreak: 'break-all' }}>
                        {e.hashBefore ? `${e.hashBefore.slice(0, 16)}… → ` : ''}
                        {e.hashAfter.slice(0, 16)}…
                      </div>
                    ) : null}
                  </li>
                ))}
              </ol>
            </section>
          ) : null}
        </div>
      ) : null}
      <Modal
        open={isCancelOpen}
        title={tt('cancelFlow')}
        onCancel={() => setIsCancelOpen(false)}
        footer={null}
        destroyOnHidden
      >
        <p>{tt('cancelConfirm')}</p>
        <label htmlFor={reasonId} style={{ display: 'block', marginBottom: 4 }}>
          {tt('reason')}
        </label>
        <Input.TextArea
          id={reasonId}
          rows={3}
          maxLength={200}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        {reasonError ? (
          <div role="alert" style={{ color: '#ff4d4f' }}>
            {reasonError}
          </div>
        ) : null}
        <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end', marginTop: 12 }}>
          <Button onClick={() => setIsCancelOpen(false)}>{tt('close')}</Button>
          <Button danger type="primary" loading={isBusy} onClick={cancel}>
            {tt('cancelFlow')}
          </Button>
        </div>
      </Modal>
      <FlowDetailDrawer flowId={linkedId} onClose={() => setLinkedId(null)} onChanged={onChanged} />
    </Drawer>
  );
}
