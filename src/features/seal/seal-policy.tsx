import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import { useCallback, useEffect, useId, useState } from 'react';
import {
  APPROVAL_MODES,
  APPROVAL_VALID_HOURS,
  type ApprovalMode,
  DEFAULT_APPROVAL_VALID_HOURS,
  getSealPolicy,
  MAX_APPROVERS,
  type SealPolicy,
  saveSealPolicy,
} from '@/api/approval.ts';
import { showApiError } from '@/api/http.ts';
import type { Seal } from '@/api/seal.ts';
import { listTemplates } from '@/api/template.ts';
import { DecimalInput, NumberInput } from '@/components/number-input.tsx';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { policyTexts } from './policy-texts.ts';

const usePolicyTexts = () => useTexts(policyTexts);

/** The approval rule of each given company seal (administrator), with a reload after a change. */
export function useSealPolicies(seals: Seal[], isEnabled: boolean) {
  const [policies, setPolicies] = useState<Record<string, SealPolicy>>({});
  const ids = seals.map((s) => s.id).join(',');
  const reload = useCallback(async () => {
    if (!isEnabled || !ids) return setPolicies({});
    const found = await Promise.all(
      ids.split(',').map((sealId) => getSealPolicy({ sealId }).catch(() => null)), // no rule shown then
    );
    setPolicies(Object.fromEntries(found.filter((p) => p !== null).map((p) => [p.sealId, p])));
  }, [ids, isEnabled]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { policies, reload };
}

/** One line on a seal card: who approves its uses ("Approval: Zhang San then Li Si"), and what it lacks. */
export function PolicySummary({ policy }: { policy: SealPolicy }) {
  const tt = usePolicyTexts();
  if (policy.mode === 'none') return <div className="seal-card-muted">{tt('summaryNone')}</div>;
  const nameOf = (a: SealPolicy['approvers'][number]) => a.name ?? a.phoneMasked;
  const names = policy.approvers
    .map(nameOf)
    .join(tt(policy.mode === 'all_in_order' ? 'inOrderJoin' : 'anyJoin'));
  const key = (
    { one: 'summaryOne', all_in_order: 'summaryInOrder', all_any_order: 'summaryAnyOrder' } as const
  )[policy.mode];
  const lost = policy.approvers.filter((a) => !a.isApprover);
  return (
    <div data-testid="seal-policy-summary">
      {tt(key, { names })}
      {policy.minAmount !== null ? tt('above', { amount: String(policy.minAmount) }) : ''}
      {policy.templateIds?.length ? tt('forTemplates', { n: policy.templateIds.length }) : ''}
      {lost.map((a) => (
        <div key={a.userId} style={{ color: '#d4380d', fontSize: 12 }}>
          {tt('lostApprover', { name: nameOf(a) })}
        </div>
      ))}
    </div>
  );
}

type Draft = {
  mode: ApprovalMode;
  approverIds: string[];
  minAmount: string;
  templateIds: string[];
  allowSelfApproval: boolean;
  validHours: string;
};

const draftOf = (p: SealPolicy | undefined): Draft => ({
  mode: p?.mode ?? 'none',
  approverIds: p?.approvers.map((a) => a.userId) ?? [],
  minAmount: p?.minAmount !== null && p?.minAmount !== undefined ? String(p.minAmount) : '',
  templateIds: p?.templateIds ?? [],
  allowSelfApproval: p?.allowSelfApproval ?? false,
  validHours: String(p?.validHours ?? DEFAULT_APPROVAL_VALID_HOURS),
});

/**
 * The approval rule form of one company seal: no approval, one of, all in order (the order shown, changed with
 * the arrows) or all in any order; approvers among the members holding the approver role; optionally only from an
 * amount or for given templates; self-approval; how long an approval stays usable. Saving warns first: requests
 * under the old rule become void.
 */
export function SealPolicyDialog({
  seal,
  title,
  policy,
  onClose,
  onSaved,
}: {
  seal: Seal;
  title: string;
  policy: SealPolicy | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const tt = usePolicyTexts();
  const ids = { approvers: useId(), minAmount: useId(), templates: useId(), hours: useId() };
  const [current, setCurrent] = useState<SealPolicy | undefined>(policy);
  const [draft, setDraft] = useState<Draft>(() => draftOf(policy));
  const [templates, setTemplates] = useState<{ value: string; label: string }[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  useEffect(() => {
    getSealPolicy({ sealId: seal.id })
      .then((p) => {
        setCurrent(p);
        setDraft(draftOf(p));
      })
      .catch(showApiError);
    listTemplates({ pageNum: 1, pageSize: 100 })
      .then((r) => setTemplates(r.list.map((t) => ({ value: t.templateId, label: t.name }))))
      .catch(() => {}); // no template to choose then: the rule still applies to every flow
  }, [seal.id]);
  const set = (patch: Partial<Draft>) => {
    setProblem(null);
    setDraft((d) => ({ ...d, ...patch }));
  };
  // Everyone the rule may name: the approvers now, and those it names already (even one who lost the role).
  const people = new Map<string, string>();
  for (const c of current?.candidates ?? []) people.set(c.userId, c.name ?? c.phoneMasked);
  for (const a of current?.approvers ?? [])
    if (!people.has(a.userId)) people.set(a.userId, a.name ?? a.phoneMasked);
  const nameOf = (id: string) => people.get(id) ?? id;
  const move = (index: number, by: -1 | 1) => {
    const next = [...draft.approverIds];
    const [item] = next.splice(index, 1);
    if (item) next.splice(index + by, 0, item);
    set({ approverIds: next });
  };

  const save = async () => {
    if (draft.mode !== 'none' && draft.approverIds.length === 0) return setProblem(tt('approversRequired'));
    const minAmount = Number.parseFloat(draft.minAmount);
    const hours = Number.parseInt(draft.validHours, 10);
    setIsSaving(true);
    try {
      await saveSealPolicy({
        sealId: seal.id,
        mode: draft.mode,
        approverIds: draft.mode === 'none' ? [] : draft.approverIds,
        minAmount: Number.isFinite(minAmount) && minAmount > 0 ? minAmount : null,
        templateIds: draft.templateIds.length ? draft.templateIds : null,
        allowSelfApproval: draft.allowSelfApproval,
        validHours: Number.isFinite(hours) ? hours : DEFAULT_APPROVAL_VALID_HOURS,
      });
      notify.success(tt('saved'), 2000);
      onSaved();
    } catch (e) {
      setProblem(showApiError(e));
    } finally {
      setIsSaving(false);
    }
  };

  const isOff = draft.mode === 'none';
  const label = (htmlFor: string, text: string) => (
    <label htmlFor={htmlFor} style={{ display: 'block', fontWeight: 600, margin: '12px 0 4px' }}>
      {text}
    </label>
  );
  return (
    <Modal
      open
      title={tt('title', { seal: title })}
      onCancel={onClose}
      width={560}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {tt('cancel')}
        </Button>,
        <Popconfirm
          key="save"
          title={tt('confirmSave')}
          okText={tt('save')}
          cancelText={tt('cancel')}
          onConfirm={() => void save()}
        >
          <Button type="primary" loading={isSaving}>
            {tt('save')}
          </Button>
        </Popconfirm>,
      ]}
    >
      {!current ? <p>{tt('loading')}</p> : null}
      <div style={{ marginBottom: 4 }}>
        <div style={{ fontWeight: 600, marginBottom: 4 }}>{tt('mode')}</div>
        <Radio.Group
          value={draft.mode}
          onChange={(e) => set({ mode: e.target.value as ApprovalMode })}
          options={APPROVAL_MODES.map((m) => ({ value: m, label: tt(`mode.${m}`) }))}
        />
      </div>
      {isOff ? null : (
        <>
          {label(ids.approvers, tt('approvers'))}
          {current && current.candidates.length === 0 ? (
            <Alert type="warning" title={tt('noCandidates')} style={{ marginBottom: 8 }} />
          ) : null}
          <Select
            id={ids.approvers}
            mode="multiple"
            style={{ width: '100%' }}
            value={draft.approverIds}
            maxCount={MAX_APPROVERS}
            onChange={(v: string[]) => set({ approverIds: v })}
            options={[...people].map(([value, name]) => ({ value, label: name }))}
            optionFilterProp="label"
          />
          <div className="seal-card-muted">
            {tt(draft.mode === 'all_in_order' ? 'approversOrderHelp' : 'approversHelp')}
          </div>
          {draft.mode === 'all_in_order' && draft.approverIds.length > 1 ? (
            <ol data-testid="approver-order" style={{ margin: '4px 0 0', paddingLeft: 20 }}>
              {draft.approverIds.map((id, i) => (
                <li key={id}>
                  {nameOf(id)}{' '}
                  <Button
                    size="small"
                    type="text"
                    aria-label={tt('moveUp', { name: nameOf(id) })}
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                  >
                    ↑
                  </Button>
                  <Button
                    size="small"
                    type="text"
                    aria-label={tt('moveDown', { name: nameOf(id) })}
                    disabled={i === draft.approverIds.length - 1}
                    onClick={() => move(i, 1)}
                  >
                    ↓
                  </Button>
                </li>
              ))}
            </ol>
          ) : null}
          {label(ids.minAmount, tt('minAmount'))}
          <DecimalInput
            id={ids.minAmount}
            min={0}
            max={1e12}
            precision={2}
            value={draft.minAmount}
            onChange={(v) => set({ minAmount: v })}
            placeholder={tt('minAmountHelp')}
          />
          {label(ids.templates, tt('templates'))}
          <Select
            id={ids.templates}
            mode="multiple"
            allowClear
            style={{ width: '100%' }}
            value={draft.templateIds}
            onChange={(v: string[]) => set({ templateIds: v })}
            options={templates}
            optionFilterProp="label"
            placeholder={tt('templatesHelp')}
          />
          <div style={{ margin: '12px 0 0' }}>
            <Checkbox
              checked={draft.allowSelfApproval}
              onChange={(e) => set({ allowSelfApproval: e.target.checked })}
            >
              {tt('allowSelf')}
            </Checkbox>
          </div>
          {label(ids.hours, tt('validHours'))}
          <NumberInput
            id={ids.hours}
            min={APPROVAL_VALID_HOURS.min}
            max={APPROVAL_VALID_HOURS.max}
            precision={0}
            value={draft.validHours}
            onChange={(v) => set({ validHours: v })}
            style={{ maxWidth: 160 }}
          />
        </>
      )}
      <Alert type="info" title={tt('voidWarning')} style={{ marginTop: 12 }} />
      {problem ? <Alert type="error" title={problem} style={{ marginTop: 8 }} /> : null}
    </Modal>
  );
}
