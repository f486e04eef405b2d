// Reassign (转交), copy a signing link and change the deadline on the flow detail (issue 29): the launcher's
// actions per unsigned party and on the flow, and the hand-over history every reader of the flow sees.
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useState } from 'react';
import type { FlowDetail } from '@/api/flow.ts';
import { ApiError } from '@/api/http.ts';
import {
  type ReassignCandidate,
  type Reassignment,
  changeFlowDeadline,
  copySigningLink,
  checkReassignForm,
  listReassignCandidates,
  listReassignments,
  reassignParty,
} from '@/api/reassign.ts';
import { Labelled } from '@/components/labelled.tsx';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { formatTime, localInputValue } from '@/lib/format-time.ts';
import { notify } from '@/lib/notify.ts';
import { reassignTexts } from './reassign-texts.ts';

type PartyView = FlowDetail['steps'][number]['parties'][number];
const messageOf = (e: unknown) => (e instanceof ApiError ? e.message : String(e));
const whoOf = (p: PartyView) => [p.companyName, p.name].filter(Boolean).join(' · ') || p.phoneMasked;

/** The launcher hands a party to someone else: a person to a name and phone, a company to a handler. */
function ReassignDialog({
  flowId,
  party,
  onClose,
  onDone,
}: {
  flowId: string;
  party: PartyView;
  onClose: () => void;
  onDone: () => void;
}) {
  const tt = useTexts(reassignTexts);
  const isCompany = party.kind === 'company';
  const [candidates, setCandidates] = useState<ReassignCandidate[] | null>(null);
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [handler, setHandler] = useState<string | undefined>();
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isBusy, setIsBusy] = useState(false);

  useEffect(() => {
    if (!isCompany) return;
    listReassignCandidates({ flowId, partyId: party.partyId })
      .then((r) => setCandidates(r.candidates))
      .catch((e) => setErrors({ form: messageOf(e) }));
  }, [isCompany, flowId, party.partyId]);

  const submit = async () => {
    const { to, issues } = checkReassignForm({ isCompany, name, phone, handler, reason });
    setErrors(Object.fromEntries(Object.entries(issues).map(([k, v]) => [k, tt(v)])));
    if (!to) return;
    setIsBusy(true);
    try {
      await reassignParty({ flowId, partyId: party.partyId, to, reason: reason.trim() });
      notify.success(tt('reassigned'), 2000);
      onDone();
    } catch (e) {
      setErrors({ form: messageOf(e) });
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <Modal
      open
      title={tt('reassignTitle', { who: whoOf(party) })}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <p>{tt('reassignIntro')}</p>
      {isCompany ? (
        candidates && candidates.length === 0 ? (
          <Alert type="warning" title={tt('noHandlers')} />
        ) : (
          <Labelled label={tt('handler', { company: party.companyName ?? '' })} error={errors.handler}>
            {(id) => (
              <Select
                id={id}
                style={{ width: '100%' }}
                value={handler}
                onChange={setHandler}
                loading={candidates === null}
                options={(candidates ?? []).map((c) => ({
                  value: c.userId,
                  label: `${c.name ?? ''} ${c.phoneMasked} · ${tt(c.role === 'admin' ? 'roleAdmin' : 'roleHandler')}`,
                }))}
              />
            )}
          </Labelled>
        )
      ) : (
        <>
          <Labelled label={tt('newName')} error={errors.name}>
            {(id) => <Input id={id} maxLength={32} value={name} onChange={(e) => setName(e.target.value)} />}
          </Labelled>
          <Labelled label={tt('newPhone')} error={errors.phone}>
            {(id) => (
              <Input
                id={id}
                inputMode="numeric"
                maxLength={11}
                value={phone}
                onChange={(e) => setPhone(e.target.value)}
              />
            )}
          </Labelled>
        </>
      )}
      <Labelled label={tt('reason')} error={errors.reason}>
        {(id) => (
          <Input.TextArea
            id={id}
            rows={3}
            maxLength={200}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        )}
      </Labelled>
      {errors.form ? <Alert type="error" title={errors.form} /> : null}
      <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end', marginTop: 12 }}>
        <Button onClick={onClose}>{tt('cancel')}</Button>
        <Button type="primary" loading={isBusy} onClick={submit}>
          {tt('confirmReassign')}
        </Button>
      </div>
    </Modal>
  );
}

/** A fresh signing link, shown once with a copy button. */
function LinkDialog({ who, url, onClose }: { who: string; url: string; onClose: () => void }) {
  const tt = useTexts(reassignTexts);
  const [isCopied, setIsCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setIsCopied(true);
    } catch {
      notify.error(tt('copyFailed'), 3000);
    }
  };
  return (
    <Modal open title={tt('linkTitle', { who })} onCancel={onClose} footer={null} destroyOnHidden>
      <Alert type="warning" title={tt('linkOnce')} style={{ marginBottom: 12 }} />
      <Labelled label={tt('linkLabel')}>
        {(id) => <Input.TextArea id={id} readOnly autoSize value={url} data-testid="copied-link" />}
      </Labelled>
      <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
        <Button onClick={onClose}>{tt('close')}</Button>
        <Button type="primary" onClick={copy}>
          {isCopied ? tt('copied') : tt('copy')}
        </Button>
      </div>
    </Modal>
  );
}

/** The launcher moves the deadline (at least an hour ahead, at most a year). */
function DeadlineDialog({
  flow,
  onClose,
  onDone,
}: {
  flow: FlowDetail;
  onClose: () => void;
  onDone: () => void;
}) {
  const tt = useTexts(reassignTexts);
  const [value, setValue] = useState(localInputValue(flow.deadline));
  const [error, setError] = useState<string | undefined>();
  const [isBusy, setIsBusy] = useState(false);
  const submit = async () => {
    const at = value ? new Date(value) : null;
    if (!at || Number.isNaN(at.getTime())) return setError(tt('deadlineRequired'));
    setIsBusy(true);
    try {
      await changeFlowDeadline({ flowId: flow.flowId, deadline: at.toISOString() });
      notify.success(tt('deadlineChanged'), 2000);
      onDone();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Modal open title={tt('deadlineTitle')} onCancel={onClose} footer={null} destroyOnHidden>
      <p>{tt('deadlineIntro')}</p>
      <Labelled label={tt('newDeadline')} error={error}>
        {(id) => (
          <Input id={id} type="datetime-local" value={value} onChange={(e) => setValue(e.target.value)} />
        )}
      </Labelled>
      <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
        <Button onClick={onClose}>{tt('cancel')}</Button>
        <Button type="primary" loading={isBusy} onClick={submit}>
          {tt('confirmDeadline')}
        </Button>
      </div>
    </Modal>
  );
}

type Open =
  | { kind: 'reassign'; party: PartyView }
  | { kind: 'link'; who: string; url: string }
  | { kind: 'deadline' }
  | null;

/** The flow detail's section: the launcher's actions, and the hand-over history. */
export function ReassignPanel({ flow, onChanged }: { flow: FlowDetail; onChanged: () => void }) {
  const tt = useTexts(reassignTexts);
  const locale = useI18nStore((s) => s.locale);
  const [history, setHistory] = useState<{ items: Reassignment[]; allowed: Set<string> } | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const isLauncherOpen = flow.mine.isInitiator && flow.status === 'signing';

  const load = useCallback(async () => {
    try {
      const h = await listReassignments({ flowId: flow.flowId });
      setHistory({
        items: h.items,
        allowed: new Set(h.parties.filter((p) => p.allowReassign).map((p) => p.partyId)),
      });
    } catch {
      setHistory(null);
    }
  }, [flow.flowId]);
  useEffect(() => {
    void load();
  }, [load]);

  const done = () => {
    setOpen(null);
    void load();
    onChanged();
  };
  const copy = async (p: PartyView) => {
    try {
      const { url } = await copySigningLink({ flowId: flow.flowId, partyId: p.partyId });
      setOpen({ kind: 'link', who: whoOf(p), url });
    } catch (e) {
      if (!(e instanceof ApiError && e.handled)) notify.error(messageOf(e), 3000);
    }
  };
  const unsigned = flow.steps
    .flatMap((s) => s.parties)
    .filter((p) => p.status === 'pending' || p.status === 'waiting');

  return (
    <section aria-label={tt('section')} data-testid="reassign-panel">
      <h3 style={{ fontSize: 15 }}>{tt('section')}</h3>
      {isLauncherOpen ? (
        <>
          <Button onClick={() => setOpen({ kind: 'deadline' })} style={{ marginBottom: 8 }}>
            {tt('changeDeadline')}
          </Button>
          <ul style={{ margin: '0 0 8px', paddingLeft: 18 }}>
            {unsigned.map((p) => (
              <li
                key={p.partyId}
                data-testid="party-actions"
                style={{ marginBottom: 6, overflowWrap: 'anywhere' }}
              >
                {whoOf(p)} {p.phoneMasked}{' '}
                {history?.allowed.has(p.partyId) ? (
                  <Button size="small" onClick={() => setOpen({ kind: 'reassign', party: p })}>
                    {tt('reassign')}
                  </Button>
                ) : (
                  <Tag>{tt('notAllowed')}</Tag>
                )}{' '}
                {p.status === 'pending' && !flow.awaitingApproval ? (
                  <Button size="small" onClick={() => copy(p)}>
                    {tt('copyLink')}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h4 style={{ fontSize: 14, margin: '8px 0 4px' }}>{tt('history')}</h4>
      {history && history.items.length > 0 ? (
        <ol style={{ paddingLeft: 18, fontSize: 13 }}>
          {history.items.map((r) => (
            <li key={r.id} data-testid="reassignment" style={{ marginBottom: 4, overflowWrap: 'anywhere' }}>
              {tt('historyItem', {
                from: `${r.fromName ?? ''} ${r.fromPhoneMasked}`.trim(),
                to: `${r.toName ?? ''} ${r.toPhoneMasked}`.trim(),
                by: tt(r.byRole === 'party' ? 'byParty' : 'byLauncher', { name: r.byName ?? '' }),
                time: formatTime(r.at, locale),
              })}
              <div style={{ color: '#666' }}>{tt('reasonShown', { reason: r.reason })}</div>
            </li>
          ))}
        </ol>
      ) : (
        <p style={{ color: '#999' }}>{tt('historyEmpty')}</p>
      )}
      {open?.kind === 'reassign' ? (
        <ReassignDialog flowId={flow.flowId} party={open.party} onClose={() => setOpen(null)} onDone={done} />
      ) : null}
      {open?.kind === 'link' ? (
        <LinkDialog who={open.who} url={open.url} onClose={() => setOpen(null)} />
      ) : null}
      {open?.kind === 'deadline' ? (
        <DeadlineDialog flow={flow} onClose={() => setOpen(null)} onDone={done} />
      ) : null}
    </section>
  );
}
