import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import { useEffect, useId, useState } from 'react';
import {
  APPROVAL_MODES,
  APPROVAL_VALID_HOURS,
  type ApprovalMode,
  DEFAULT_APPROVAL_VALID_HOURS,
  type LaunchPolicy,
  MAX_APPROVERS,
  type saveSealPolicy,
} from '@/api/approval.ts';
import { showApiError } from '@/api/http.ts';
import { listTemplates } from '@/api/template.ts';
import { DecimalInput, NumberInput } from '@/components/number-input.tsx';
import { useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { policyTexts } from './approval-rule-texts.ts';

// The approval rule form shared by a seal's policy (features/seal) and the company's launch rule
// (features/approval, issue 27).

const usePolicyTexts = () => useTexts(policyTexts);

type Draft = {
  mode: ApprovalMode;
  approverIds: string[];
  minAmount: string;
  templateIds: string[];
  allowSelfApproval: boolean;
  validHours: string;
};

/** What a rule dialog saves (a seal's policy or the launch rule, without what names the seal). */
export type RuleBody = Omit<Parameters<typeof saveSealPolicy>[0], 'sealId'>;

const draftOf = (p: LaunchPolicy | undefined): Draft => ({
  mode: p?.mode ?? 'none',
  approverIds: p?.approvers.map((a) => a.userId) ?? [],
  minAmount: p?.minAmount !== null && p?.minAmount !== undefined ? String(p.minAmount) : '',
  templateIds: p?.templateIds ?? [],
  allowSelfApproval: p?.allowSelfApproval ?? false,
  validHours: String(p?.validHours ?? DEFAULT_APPROVAL_VALID_HOURS),
});

/**
 * The form of an approval rule (a seal's uses, or the company's launches): mode, approvers (in order), amount,
 * templates, self-approval and, for a seal, how long an approval stays usable. `load` reads the rule now.
 */
export function ApprovalRuleDialog({
  title,
  help,
  policy,
  load,
  save: saveRule,
  warning,
  confirmText,
  hasValidHours = true,
  onClose,
  onSaved,
}: {
  title: string;
  help?: string;
  policy: LaunchPolicy | undefined;
  load: () => Promise<LaunchPolicy>;
  save: (body: RuleBody) => Promise<unknown>;
  warning: string;
  /** The question before saving (default: pending requests become void). */
  confirmText?: string;
  /** Whether the rule's "usable for N hours" applies (a seal's; a launch request waits until the deadline). */
  hasValidHours?: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const tt = usePolicyTexts();
  const ids = { approvers: useId(), minAmount: useId(), templates: useId(), hours: useId() };
  const [current, setCurrent] = useState<LaunchPolicy | undefined>(policy);
  const [draft, setDraft] = useState<Draft>(() => draftOf(policy));
  const [templates, setTemplates] = useState<{ value: string; label: string }[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  useEffect(() => {
    load()
      .then((p) => {
        setCurrent(p);
        setDraft(draftOf(p));
      })
      .catch(showApiError);
    listTemplates({ pageNum: 1, pageSize: 100 })
      .then((r) => setTemplates(r.list.map((t) => ({ value: t.templateId, label: t.name }))))
      .catch(() => {}); // no template to choose then: the rule still applies to every flow
  }, [load]);
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
      await saveRule({
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
      title={title}
      onCancel={onClose}
      width={560}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {tt('cancel')}
        </Button>,
        <Popconfirm
          key="save"
          title={confirmText ?? tt('confirmSave')}
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
      {help ? <p className="seal-card-muted">{help}</p> : null}
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
          {hasValidHours ? (
            <>
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
          ) : null}
        </>
      )}
      <Alert type="info" title={warning} style={{ marginTop: 12 }} />
      {problem ? <Alert type="error" title={problem} style={{ marginTop: 8 }} /> : null}
    </Modal>
  );
}
