import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import { SEAL_TYPE_NAMES, SEAL_TYPES, SealType } from '#contract/enums.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { type EditParty, type EditStep, newParty } from './config-model.ts';
import { texts } from './texts.ts';

/** One role of a step: its name, person or company, and what it applies. */
function RoleRow({
  party,
  onChange,
  onRemove,
}: {
  party: EditParty;
  onChange: (p: EditParty) => void;
  onRemove?: () => void;
}) {
  const tt = useTexts(texts);
  const locale = useI18nStore((s) => s.locale);
  const applies = party.applies ?? {};
  const set = (patch: Partial<NonNullable<EditParty['applies']>>) =>
    onChange({ ...party, applies: { ...applies, ...patch } });
  const companyTypes = SEAL_TYPES.filter((t) => t !== SealType.LegalPerson);
  return (
    <div
      className="role-row"
      data-testid="role-row"
      style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', padding: '8px 0' }}
    >
      <Input
        aria-label={tt('roleName')}
        value={party.name}
        maxLength={32}
        style={{ width: 120 }}
        placeholder={tt('roleName')}
        onChange={(e) => onChange({ ...party, name: e.target.value })}
      />
      <Radio.Group
        aria-label={tt('kind')}
        value={party.kind}
        onChange={(e) => onChange(newPartyKind(party, e.target.value))}
        options={[
          { label: tt('person'), value: 'person' },
          { label: tt('company'), value: 'company' },
        ]}
      />
      {party.kind === 'company' ? (
        <>
          <Select
            aria-label={tt('companySeal')}
            style={{ width: 150 }}
            value={applies.companySealType ?? 0}
            onChange={(v) => set({ companySealType: v === 0 ? null : v })}
            options={[
              { label: tt('noCompanySeal'), value: 0 },
              ...companyTypes.map((t) => ({
                label: SEAL_TYPE_NAMES[t][locale === 'zh-CN' ? 'zh' : 'en'],
                value: t,
              })),
            ]}
          />
          <Checkbox
            checked={!!applies.legalPersonSeal}
            onChange={(e) => set({ legalPersonSeal: e.target.checked })}
          >
            {tt('legalPersonSeal')}
          </Checkbox>
          <Checkbox
            checked={!!applies.personSignature}
            onChange={(e) => set({ personSignature: e.target.checked })}
          >
            {tt('personSignature')}
          </Checkbox>
          <Checkbox
            checked={!!applies.crossPageSeal}
            onChange={(e) => set({ crossPageSeal: e.target.checked })}
          >
            {tt('crossPageSeal')}
          </Checkbox>
        </>
      ) : (
        <Checkbox checked disabled>
          {tt('personSignature')}
        </Checkbox>
      )}
      <Checkbox checked={!!applies.date} onChange={(e) => set({ date: e.target.checked })}>
        {tt('date')}
      </Checkbox>
      {onRemove ? (
        <Button size="small" danger onClick={onRemove} aria-label={tt('removeRole', { name: party.name })}>
          ×
        </Button>
      ) : null}
    </div>
  );
}

const newPartyKind = (p: EditParty, kind: 'person' | 'company'): EditParty => ({
  ...newParty(p.name, kind),
  key: p.key,
});

/** Ordered steps, each with roles that sign in parallel: add, remove, reorder, edit. */
export function StepsEditor({
  steps,
  onChange,
}: {
  steps: EditStep[];
  onChange: (steps: EditStep[]) => void;
}) {
  const tt = useTexts(texts);
  const setStep = (i: number, step: EditStep) => onChange(steps.map((s, k) => (k === i ? step : s)));
  return (
    <div className="steps-editor">
      {steps.map((step, i) => (
        <Card
          // biome-ignore lint/suspicious/noArrayIndexKey: a step is its place in the order
          key={i}
          size="small"
          style={{ marginBottom: 12 }}
          title={tt('step', { n: i + 1 })}
          extra={
            <span style={{ display: 'flex', gap: 8 }}>
              {i > 0 ? (
                <Button
                  size="small"
                  aria-label={tt('moveUp', { n: i + 1 })}
                  onClick={() => {
                    const next = [...steps];
                    [next[i - 1], next[i]] = [next[i], next[i - 1]];
                    onChange(next);
                  }}
                >
                  ↑
                </Button>
              ) : null}
              {steps.length > 1 ? (
                <Button size="small" danger onClick={() => onChange(steps.filter((_, k) => k !== i))}>
                  {tt('removeStep', { n: i + 1 })}
                </Button>
              ) : null}
            </span>
          }
        >
          <p style={{ color: '#999', margin: 0 }}>{tt('stepHint')}</p>
          {step.parties.map((p, k) => (
            <RoleRow
              key={p.key}
              party={p}
              onChange={(next) => setStep(i, { parties: step.parties.map((x, j) => (j === k ? next : x)) })}
              onRemove={
                step.parties.length > 1
                  ? () => setStep(i, { parties: step.parties.filter((_, j) => j !== k) })
                  : undefined
              }
            />
          ))}
          <Button
            size="small"
            onClick={() => setStep(i, { parties: [...step.parties, newParty('', 'person')] })}
          >
            {tt('addRole')}
          </Button>
        </Card>
      ))}
      <Button onClick={() => onChange([...steps, { parties: [newParty('', 'person')] }])}>
        {tt('addStep')}
      </Button>
    </div>
  );
}
