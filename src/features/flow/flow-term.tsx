// Issue 29 in the flow detail: the contract's term ("expires in N days", reminders), the flow it renews and its
// renewals, "Edit term" for the launcher (signing or completed flows) and "Renew" for a completed one.
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Tag from 'antd/es/tag';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '@/api/http.ts';
import { getFlowRenewal, listFlowTerms, setFlowTerm, type TermView } from '@/api/term.ts';
import { getFlowTerm } from '@/api/term.ts';
import { newTerm, type TermDraft, TermFields, termIssue, termRequest } from '@/components/term-fields.tsx';
import { termTexts } from '@/components/term-texts.ts';
import { paths } from '@/config/paths.ts';
import { useTexts } from '@/i18n/i18n-store.ts';
import { localDayValue } from '@/lib/format-time.ts';
import { notify } from '@/lib/notify.ts';

const messageOf = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

type TermBrief = { endsOn: string; daysLeft: number };

/** The terms of the listed flows the account launched (a list's "expires in N days"), by flow id. */
export function useFlowTerms(flowIds: string[]): Map<string, TermBrief> {
  const [terms, setTerms] = useState(new Map<string, TermBrief>());
  const key = flowIds.join(',');
  useEffect(() => {
    if (!key) return setTerms(new Map());
    let isLive = true;
    listFlowTerms({ flowIds: key.split(',') }).then(
      (r) => isLive && setTerms(new Map(r.items.map((t) => [t.flowId, t]))),
      () => {},
    );
    return () => {
      isLive = false;
    };
  }, [key]);
  return terms;
}

/** "Expires in N days" (orange within 30 days) or "Ended", for a row of a list. */
export function TermTag({ term }: { term: TermBrief | undefined }) {
  const tt = useTexts(termTexts);
  if (!term) return null;
  return (
    <Tag
      color={term.daysLeft < 0 ? 'default' : term.daysLeft <= 30 ? 'orange' : 'blue'}
      data-testid="term-tag"
    >
      {term.daysLeft < 0 ? tt('ended', { n: -term.daysLeft }) : tt('expiresIn', { n: term.daysLeft })}
    </Tag>
  );
}

export function FlowTermSection({ flowId, status }: { flowId: string; status: string }) {
  const tt = useTexts(termTexts);
  const navigate = useNavigate();
  const [view, setView] = useState<TermView | null>(null);
  const [editing, setEditing] = useState<TermDraft | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const load = useCallback(() => {
    getFlowTerm({ flowId }).then(setView, () => setView(null));
  }, [flowId]);
  useEffect(load, [load]);
  if (!view) return null;
  const { term } = view;
  const canEdit = view.isLauncher && (status === 'signing' || status === 'completed');

  const save = async (next: TermDraft | null) => {
    setIsBusy(true);
    try {
      setView(await setFlowTerm({ flowId, term: next ? termRequest(next) : null }));
      setEditing(null);
      notify.success(tt('saved'), 2000);
    } catch (e) {
      notify.error(messageOf(e), 3000);
    } finally {
      setIsBusy(false);
    }
  };
  const renew = async () => {
    try {
      const r = await getFlowRenewal({ flowId });
      navigate(
        r.kind === 'template' && r.templateId
          ? `${paths.manageTemplateDetail}?templateId=${r.templateId}&renew=${flowId}`
          : `${paths.manageFileUpload}?renew=${flowId}`,
      );
    } catch (e) {
      notify.error(messageOf(e), 3000);
    }
  };

  return (
    <section aria-label={tt('termTitle')} data-testid="flow-term" style={{ margin: '12px 0' }}>
      <h3 style={{ fontSize: 15 }}>{tt('termTitle')}</h3>
      {term ? (
        <div>
          {tt('termLine', { start: term.startsOn, end: term.endsOn })}{' '}
          <Tag color={term.state === 'ended' ? 'default' : term.daysLeft <= 30 ? 'orange' : 'blue'}>
            {term.state === 'ended'
              ? tt('ended', { n: -term.daysLeft })
              : term.state === 'notStarted'
                ? tt('notStarted')
                : tt('expiresIn', { n: term.daysLeft })}
          </Tag>
          <div style={{ color: '#999', fontSize: 12 }}>
            {term.remindDays.length ? tt('reminders', { days: term.remindDays.join('/') }) : null}
            {term.sentDays.length ? ` · ${tt('remindersSent', { days: term.sentDays.join('/') })}` : null}
            {term.remindPeople.length
              ? ` · ${term.remindPeople.map((p) => (p.name ? `${p.name} ${p.phone}` : p.phone)).join('、')}`
              : null}
          </div>
        </div>
      ) : (
        <div style={{ color: '#999' }}>{tt('noTerm')}</div>
      )}
      {view.renews ? <div>{tt('renews', { title: view.renews.title })}</div> : null}
      {view.renewedBy.map((r) => (
        <div key={r.flowId} data-testid="renewed-by">
          {tt('renewedBy', { title: r.title })}
        </div>
      ))}
      <div style={{ display: 'flex', gap: 8, marginTop: 8, flexWrap: 'wrap' }}>
        {canEdit ? (
          <Button
            size="small"
            onClick={() =>
              setEditing(
                term
                  ? {
                      ...term,
                      remindDays: term.remindDays as TermDraft['remindDays'],
                      remindPeople: term.remindPeople.map((p) => ({
                        phone: p.phone,
                        ...(p.name ? { name: p.name } : {}),
                      })),
                    }
                  : newTerm(localDayValue(new Date())),
              )
            }
          >
            {term ? tt('editTerm') : tt('setTerm')}
          </Button>
        ) : null}
        {view.isLauncher && status === 'completed' ? (
          <Button size="small" type="primary" onClick={() => void renew()}>
            {tt('renew')}
          </Button>
        ) : null}
      </div>
      <Modal
        open={editing !== null}
        title={tt('termTitle')}
        onCancel={() => setEditing(null)}
        footer={[
          term ? (
            <Button key="remove" danger disabled={isBusy} onClick={() => void save(null)}>
              {tt('removeTerm')}
            </Button>
          ) : null,
          <Button key="cancel" onClick={() => setEditing(null)}>
            {tt('cancel')}
          </Button>,
          <Button
            key="save"
            type="primary"
            loading={isBusy}
            disabled={!editing || termIssue(editing) !== null}
            onClick={() => editing && void save(editing)}
          >
            {tt('save')}
          </Button>,
        ]}
      >
        {editing ? <TermFields term={editing} onChange={setEditing} /> : null}
      </Modal>
    </section>
  );
}
