import { SEAL_TYPE_NAMES, SEAL_TYPES, SealType } from '#contract/enums.ts';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import { useState } from 'react';
import { chooseUserList, chooseUserOperatorList } from '@/api/company.ts';
import { INTENT_CHECKS, type IntentCheck } from '@/api/flow.ts';
import { pick, useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { useSessionStore } from '@/session/session-store.ts';
import { CHOICE_KINDS, FIELD_KINDS } from '#contract/rules/fields.ts';
import {
  companyApplies,
  type DraftField,
  type DraftIssue,
  type DraftParty,
  newDraftField,
  personApplies,
  preferredSealType,
} from './launch-draft.ts';
import { ReadinessLine } from './readiness.tsx';
import { texts } from './texts.ts';
import { showApiError } from '@/api/http.ts';
import { Labelled } from '@/components/labelled.tsx';

/** One signer: a person by phone and name, or a company (own or another) with the operator who gets the link. */
export function PartyCard({
  party,
  index,
  issues,
  showIssues,
  onChange,
  onRemove,
}: {
  party: DraftParty;
  index: number;
  issues: DraftIssue[];
  showIssues: boolean;
  onChange: (p: DraftParty) => void;
  onRemove?: () => void;
}) {
  const tt = useTexts(texts);
  const locale = useI18nStore((s) => s.locale);
  const me = useSessionStore((s) => s.userInfo);
  const [lookup, setLookup] = useState<string | null>(null);
  /** What a search found: people to choose from (names and masked phones only). */
  const [choices, setChoices] = useState<{ userId: string; name: string | null; phone: string }[] | null>(
    null,
  );
  const issueOf = (...keys: DraftIssue['key'][]) => {
    if (!showIssues) return undefined;
    const hit = issues.find((i) => i.partyKey === party.key && keys.includes(i.key));
    return hit ? tt(`issue.${hit.key}`) : undefined;
  };
  const hasOwnCompany = Boolean(me?.companyId && me.userType === 1);
  const set = (change: Partial<DraftParty>) => onChange({ ...party, ...change });
  const setApplies = (change: Partial<DraftParty['applies']>) =>
    set({ applies: { ...party.applies, ...change } });

  const isPhoneTyped = /^1\d{10}$/.test(party.phone);
  const findPerson = async () => {
    setLookup(null);
    setChoices(null);
    try {
      // A full phone finds its user (the typed phone is used); a full name lists the users to choose from.
      const users = await chooseUserList({ keyword: isPhoneTyped ? party.phone : party.name.trim() });
      if (!isPhoneTyped) setChoices(users);
      else if (users[0]?.name) {
        set({ name: party.name || users[0].name });
        setLookup(tt('found', { name: users[0].name }));
      } else setLookup(tt('notFound'));
    } catch (e) {
      showApiError(e);
    }
  };
  // The company picker answers only the company's administrators (issue 23): an administrator acting for
  // the company finds its members; anyone else, and every launcher naming another company, types the
  // operator's full phone.
  const canFindOperators = party.companyMode === 'own' && hasOwnCompany && Boolean(me?.isAdmin);
  const findOperators = async () => {
    setChoices(null);
    try {
      const keyword = party.phone || party.name.trim();
      const list = await chooseUserOperatorList(keyword ? { keyword } : {});
      setChoices(list);
    } catch (e) {
      showApiError(e);
    }
  };

  const sealOptions = [
    { value: 0, label: tt('noCompanySeal') },
    ...SEAL_TYPES.filter((t) => t !== SealType.LegalPerson).map((t) => ({
      value: t,
      label: pick(locale, SEAL_TYPE_NAMES[t]),
    })),
  ];

  return (
    <article
      aria-label={`${tt('partyKind')} ${index + 1}`}
      data-testid="party-card"
      style={{
        border: '1px solid #e5e5e5',
        borderRadius: 8,
        padding: 12,
        marginBottom: 12,
        background: '#fff',
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, marginBottom: 12, flexWrap: 'wrap' }}>
        <Radio.Group
          aria-label={tt('partyKind')}
          value={party.kind}
          onChange={(e) => {
            const kind = e.target.value as DraftParty['kind'];
            set({
              kind,
              applies: kind === 'person' ? personApplies() : companyApplies(),
              companyMode: hasOwnCompany ? 'own' : 'other',
              companyId: kind === 'company' && hasOwnCompany ? (me?.companyId ?? undefined) : undefined,
              companyName: kind === 'company' && hasOwnCompany ? (me?.companyName ?? '') : '',
            });
          }}
          optionType="button"
          options={[
            { value: 'person', label: tt('person') },
            { value: 'company', label: tt('company') },
          ]}
        />
        {onRemove ? (
          <Button type="link" danger onClick={onRemove} style={{ marginLeft: 'auto' }}>
            {tt('remove')}
          </Button>
        ) : null}
      </div>
      {party.kind === 'company' ? (
        <>
          <Radio.Group
            value={party.companyMode}
            onChange={(e) => {
              const mode = e.target.value as DraftParty['companyMode'];
              set(
                mode === 'own'
                  ? {
                      companyMode: mode,
                      companyId: me?.companyId ?? undefined,
                      companyName: me?.companyName ?? '',
                    }
                  : { companyMode: mode, companyId: undefined, companyName: '' },
              );
            }}
            style={{ marginBottom: 12 }}
          >
            <Radio value="own" disabled={!hasOwnCompany}>
              {tt('ownCompany', { name: me?.companyName ?? '—' })}
            </Radio>
            <Radio value="other">{tt('otherCompany')}</Radio>
          </Radio.Group>
          {party.companyMode === 'other' ? (
            <Labelled label={tt('companyName')} error={issueOf('needCompany')}>
              {(id) => (
                <Input
                  id={id}
                  value={party.companyName}
                  maxLength={64}
                  onChange={(e) => set({ companyName: e.target.value })}
                />
              )}
            </Labelled>
          ) : issueOf('needCompany') ? (
            <div role="alert" style={{ color: '#ff4d4f' }}>
              {issueOf('needCompany')}
            </div>
          ) : null}
        </>
      ) : null}
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))',
          gap: '0 12px',
        }}
      >
        <Labelled
          label={party.kind === 'company' ? tt('operatorPhone') : tt('signerPhone')}
          error={issueOf('badPhone', 'duplicateSigner')}
        >
          {(id) =>
            party.picked ? (
              <div style={{ display: 'flex', gap: 8 }}>
                <Input id={id} value={party.picked.phoneMasked} readOnly />
                <Button onClick={() => set({ picked: undefined })}>{tt('change')}</Button>
              </div>
            ) : (
              <div style={{ display: 'flex', gap: 8 }}>
                <Input
                  id={id}
                  value={party.phone}
                  inputMode="tel"
                  maxLength={11}
                  placeholder={tt('operatorPhoneHint')}
                  onChange={(e) => set({ phone: e.target.value.trim() })}
                />
                {party.kind === 'person' || canFindOperators ? (
                  <Button
                    onClick={party.kind === 'company' ? findOperators : findPerson}
                    disabled={party.kind === 'person' && !isPhoneTyped && party.name.trim().length < 2}
                    title={party.kind === 'person' ? tt('findHint') : tt('operatorFindHint')}
                  >
                    {tt('find')}
                  </Button>
                ) : null}
              </div>
            )
          }
        </Labelled>
        <Labelled
          label={party.kind === 'company' ? tt('operatorName') : tt('signerName')}
          error={issueOf('needName')}
        >
          {(id) => (
            <Input
              id={id}
              value={party.name}
              maxLength={32}
              onChange={(e) => set({ name: e.target.value })}
            />
          )}
        </Labelled>
      </div>
      <ReadinessLine
        party={party}
        onInvite={(inviteToOpen) => set({ inviteToOpen })}
        onSealTypes={(types) => {
          // Until the launcher chooses, offer a seal type the signer has, never one the company lacks.
          const type = party.applies.companySealType;
          const first = preferredSealType(types);
          if (party.isSealTypeChosen || type == null || types.includes(type) || first === null) return;
          setApplies({ companySealType: first });
        }}
      />
      {lookup && party.kind === 'person' ? <p style={{ color: '#666', marginTop: -4 }}>{lookup}</p> : null}
      {choices && !party.picked ? (
        <fieldset
          aria-label={tt('chooseFrom')}
          style={{ border: 0, padding: 0, margin: 0, marginTop: -4, marginBottom: 12, minWidth: 0 }}
        >
          {choices.length === 0 ? (
            <span style={{ color: '#666' }}>{tt(party.kind === 'company' ? 'noMember' : 'notFound')}</span>
          ) : (
            choices.map((c) => (
              <Button
                key={c.userId}
                size="small"
                style={{ marginRight: 8, marginBottom: 4 }}
                onClick={() => {
                  set({
                    picked: { userId: c.userId, phoneMasked: c.phone },
                    phone: '',
                    name: c.name ?? party.name,
                  });
                  setChoices(null);
                }}
              >
                {`${c.name ?? ''} ${c.phone}`.trim()}
              </Button>
            ))
          )}
        </fieldset>
      ) : null}
      <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
        <legend style={{ fontSize: 14, marginBottom: 6 }}>{tt('applies')}</legend>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center' }}>
          {party.kind === 'company' ? (
            <>
              <Select
                aria-label={tt('sealType')}
                style={{ minWidth: 160 }}
                value={party.applies.companySealType ?? 0}
                options={sealOptions}
                onChange={(v: number) =>
                  set({
                    isSealTypeChosen: true,
                    applies: {
                      ...party.applies,
                      companySealType: v === 0 ? null : v,
                      anyCompanySeal: v === 0 ? false : party.applies.anyCompanySeal,
                    },
                  })
                }
              />
              <Checkbox
                checked={party.applies.companySealType != null && !party.applies.anyCompanySeal}
                disabled={party.applies.companySealType == null}
                title={tt('onlySealTypeHint')}
                onChange={(e) =>
                  set({
                    isSealTypeChosen: true,
                    applies: { ...party.applies, anyCompanySeal: !e.target.checked },
                  })
                }
              >
                {tt('onlySealType')}
              </Checkbox>
              <Checkbox
                checked={party.applies.legalPersonSeal}
                onChange={(e) => setApplies({ legalPersonSeal: e.target.checked })}
              >
                {tt('legalPersonSeal')}
              </Checkbox>
              <Checkbox
                checked={party.applies.personSignature}
                onChange={(e) => setApplies({ personSignature: e.target.checked })}
              >
                {tt('personSignature')}
              </Checkbox>
            </>
          ) : (
            <Checkbox checked disabled>
              {tt('personSignature')}
            </Checkbox>
          )}
          <Checkbox checked={party.applies.date} onChange={(e) => setApplies({ date: e.target.checked })}>
            {tt('date')}
          </Checkbox>
          <Checkbox
            checked={party.applies.crossPageSeal}
            onChange={(e) => setApplies({ crossPageSeal: e.target.checked })}
          >
            {tt('crossPageSeal')}
          </Checkbox>
        </div>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', marginTop: 8 }}>
          <label htmlFor={`${party.key}-intent`}>{tt('intent')}</label>
          <Select
            id={`${party.key}-intent`}
            aria-label={tt('intent')}
            style={{ minWidth: 160 }}
            value={party.intent ?? 'sms'}
            options={INTENT_CHECKS.map((v) => ({ value: v, label: tt(`intent.${v}`) }))}
            onChange={(v: IntentCheck) => set({ intent: v })}
          />
          <Checkbox checked={!party.noReassign} onChange={(e) => set({ noReassign: !e.target.checked })}>
            {tt('allowReassign')}
          </Checkbox>
        </div>
        {issueOf('needCompanyApplies') ? (
          <div role="alert" style={{ color: '#ff4d4f' }}>
            {issueOf('needCompanyApplies')}
          </div>
        ) : null}
      </fieldset>
      <PartyFieldsEditor
        fields={party.fields ?? []}
        onChange={(fields) => set({ fields })}
        error={issueOf('fieldLabel', 'fieldOptions', 'tooManyFields')}
      />
    </article>
  );
}

/** The fields this party fills in the signing room (issue 28): kind, label, required, options; placed later. */
function PartyFieldsEditor({
  fields,
  onChange,
  error,
}: {
  fields: DraftField[];
  onChange: (fields: DraftField[]) => void;
  error?: string;
}) {
  const tt = useTexts(texts);
  const setField = (key: string, change: Partial<DraftField>) =>
    onChange(fields.map((f) => (f.key === key ? { ...f, ...change } : f)));
  return (
    <fieldset data-testid="party-fields" style={{ border: 0, padding: 0, margin: '12px 0 0' }}>
      <legend style={{ fontWeight: 600, fontSize: 14 }}>{tt('fieldsTitle')}</legend>
      {fields.map((f) => (
        <div
          key={f.key}
          data-testid="party-field"
          style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', marginBottom: 8 }}
        >
          <Select
            aria-label={tt('fieldKind')}
            style={{ width: 140 }}
            value={f.kind}
            options={FIELD_KINDS.map((k) => ({ value: k, label: tt(`kind.${k}`) }))}
            onChange={(kind) =>
              setField(f.key, {
                kind,
                options: CHOICE_KINDS.includes(kind) ? (f.options ?? []) : undefined,
              })
            }
          />
          <Input
            aria-label={tt('fieldLabel')}
            placeholder={tt('fieldLabel')}
            style={{ width: 160 }}
            maxLength={40}
            value={f.label}
            onChange={(e) => setField(f.key, { label: e.target.value })}
          />
          <Checkbox
            checked={f.isRequired}
            onChange={(e) => setField(f.key, { isRequired: e.target.checked })}
          >
            {tt('fieldRequired')}
          </Checkbox>
          <Button
            size="small"
            danger
            aria-label={tt('removeField', { label: f.label })}
            onClick={() => onChange(fields.filter((x) => x.key !== f.key))}
          >
            ×
          </Button>
          {CHOICE_KINDS.includes(f.kind) ? (
            <Input.TextArea
              aria-label={tt('fieldOptions')}
              placeholder={tt('fieldOptions')}
              autoSize={{ minRows: 2, maxRows: 6 }}
              defaultValue={(f.options ?? []).join('\n')}
              onChange={(e) =>
                setField(f.key, {
                  options: e.target.value
                    .split(/\r?\n/)
                    .map((o) => o.trim())
                    .filter(Boolean),
                })
              }
              style={{ flexBasis: '100%' }}
            />
          ) : null}
        </div>
      ))}
      <Button
        size="small"
        onClick={() =>
          onChange([...fields, newDraftField('text', `${tt('kind.text')} ${fields.length + 1}`)])
        }
      >
        {tt('addField')}
      </Button>
      {error ? (
        <div role="alert" style={{ color: '#ff4d4f', marginTop: 4 }}>
          {error}
        </div>
      ) : null}
    </fieldset>
  );
}
