import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import { useEffect, useId, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { getFlowRenewal } from '@/api/term.ts';
import { renewalParties } from './template-term.tsx';
import { INTENT_CHECKS, type IntentCheck } from '@/api/flow.ts';
import { ApiError } from '@/api/http.ts';
import {
  getTemplate,
  getTemplateDraft,
  INITIATOR_FILLER,
  prepareTemplateLaunch,
  type Template,
  type TemplateField,
} from '@/api/template.ts';
import { paths } from '@/config/paths.ts';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { ruleMessage } from '@/lib/rule-message.ts';
import { useSessionStore } from '@/session/session-store.ts';
import {
  cleanValues,
  fillIssue,
  initialParty,
  initialValues,
  launchFieldsOf,
  type PartyForm,
  partyFromAssignment,
  toAssignments,
} from './fill-model.ts';
import { TYPE_TEXT_KEY } from './template-model.ts';
import { texts } from './texts.ts';

function FieldInput({
  field,
  value,
  onChange,
}: {
  field: TemplateField;
  value: string | boolean;
  onChange: (v: string | boolean) => void;
}) {
  const id = useId();
  const label = `${field.label}${field.isRequired ? ' *' : ''}`;
  if (field.type === 'checkbox')
    return (
      <Checkbox checked={value === true} onChange={(e) => onChange(e.target.checked)}>
        {label}
      </Checkbox>
    );
  if (field.type === 'radio' || field.type === 'select')
    return (
      <div style={{ display: 'grid', gap: 4 }}>
        <label htmlFor={id}>{label}</label>
        <Select
          id={id}
          allowClear
          value={typeof value === 'string' && value ? value : undefined}
          onChange={(v) => onChange(v ?? '')}
          options={(field.options ?? []).map((o) => ({ label: o, value: o }))}
        />
      </div>
    );
  if (field.type === 'multiline')
    return (
      <div style={{ display: 'grid', gap: 4 }}>
        <label htmlFor={id}>{label}</label>
        <Input.TextArea
          id={id}
          value={typeof value === 'string' ? value : ''}
          maxLength={1000}
          autoSize={{ minRows: 2, maxRows: 6 }}
          onChange={(e) => onChange(e.target.value)}
        />
      </div>
    );
  return (
    <div style={{ display: 'grid', gap: 4 }}>
      <label htmlFor={id}>{label}</label>
      <Input
        id={id}
        value={typeof value === 'string' ? value : ''}
        type={field.type === 'date' ? 'date' : 'text'}
        inputMode={field.type === 'number' ? 'decimal' : field.type === 'phone' ? 'tel' : undefined}
        placeholder={field.type === 'number' ? '0.00' : undefined}
        maxLength={200}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

function PartyFields({
  roleName,
  party,
  hasOwnCompany,
  ownCompanyName,
  onChange,
}: {
  roleName: string;
  party: PartyForm;
  hasOwnCompany: boolean;
  ownCompanyName: string | null;
  onChange: (p: PartyForm) => void;
}) {
  const tt = useTexts(texts);
  const ids = {
    name: useId(),
    phone: useId(),
    company: useId(),
    opPhone: useId(),
    opName: useId(),
    intent: useId(),
  };
  const set = (patch: Partial<PartyForm>) => onChange({ ...party, ...patch });
  return (
    <Card size="small" title={roleName} data-testid="role-party" style={{ marginBottom: 12 }}>
      {party.kind === 'person' ? (
        <div style={{ display: 'grid', gap: 6, gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))' }}>
          <div style={{ display: 'grid', gap: 4 }}>
            <label htmlFor={ids.name}>{tt('signerName')}</label>
            <Input
              id={ids.name}
              value={party.name}
              maxLength={32}
              onChange={(e) => set({ name: e.target.value })}
            />
          </div>
          <div style={{ display: 'grid', gap: 4 }}>
            <label htmlFor={ids.phone}>{tt('signerPhone')}</label>
            <Input
              id={ids.phone}
              value={party.phone}
              inputMode="tel"
              maxLength={11}
              onChange={(e) => set({ phone: e.target.value })}
            />
          </div>
        </div>
      ) : (
        <div style={{ display: 'grid', gap: 8 }}>
          <Radio.Group
            value={party.companyMode}
            onChange={(e) => set({ companyMode: e.target.value })}
            options={[
              {
                label: `${tt('ownCompany')}${ownCompanyName ? ` (${ownCompanyName})` : ''}`,
                value: 'own',
                disabled: !hasOwnCompany,
              },
              { label: tt('otherCompany'), value: 'other' },
            ]}
          />
          <div
            style={{ display: 'grid', gap: 6, gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))' }}
          >
            {party.companyMode === 'other' ? (
              <div style={{ display: 'grid', gap: 4 }}>
                <label htmlFor={ids.company}>{tt('companyName')}</label>
                <Input
                  id={ids.company}
                  value={party.companyName}
                  maxLength={64}
                  onChange={(e) => set({ companyName: e.target.value })}
                />
              </div>
            ) : null}
            <div style={{ display: 'grid', gap: 4 }}>
              <label htmlFor={ids.opPhone}>{tt('operatorPhone')}</label>
              <Input
                id={ids.opPhone}
                value={party.operatorPhone}
                inputMode="tel"
                maxLength={11}
                onChange={(e) => set({ operatorPhone: e.target.value })}
              />
            </div>
            <div style={{ display: 'grid', gap: 4 }}>
              <label htmlFor={ids.opName}>{tt('operatorName')}</label>
              <Input
                id={ids.opName}
                value={party.operatorName}
                maxLength={32}
                onChange={(e) => set({ operatorName: e.target.value })}
              />
            </div>
          </div>
        </div>
      )}
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', marginTop: 8 }}>
        <label htmlFor={ids.intent}>{tt('intent')}</label>
        <Select
          id={ids.intent}
          aria-label={tt('intent')}
          style={{ minWidth: 160 }}
          value={party.intent}
          options={INTENT_CHECKS.map((v) => ({ value: v, label: tt(`intent.${v}`) }))}
          onChange={(v: IntentCheck) => set({ intent: v })}
        />
      </div>
    </Card>
  );
}

/**
 * /manage/home/templateDetail?templateId= (fill a template for a new contract) and
 * /manage/home/tempTemplateDetail?draftId= (change a saved draft): the fields, grouped by who provides them,
 * and a party for each role; then on to home/templateSign.
 */
export default function TemplateDetailPage() {
  const tt = useTexts(texts);
  const locale = useI18nStore((s) => s.locale);
  const navigate = useNavigate();
  const isDraft = useLocation().pathname === paths.manageTempTemplateDetail;
  const [params] = useSearchParams();
  const me = useSessionStore((s) => s.userInfo);
  const ownCompanyId = me?.userType === 1 ? (me.companyId ?? null) : null;
  const titleId = useId();
  const [template, setTemplate] = useState<Template | null>(null);
  const [draftId, setDraftId] = useState<string | undefined>(undefined);
  const [title, setTitle] = useState('');
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [parties, setParties] = useState<PartyForm[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: tt is a new function each render; loading once per id is the point
  useEffect(() => {
    const fail = (e: unknown) =>
      setProblem(tt('loadFailed', { reason: e instanceof Error ? e.message : String(e) }));
    if (isDraft) {
      const id = params.get('draftId');
      if (!id) return;
      getTemplateDraft({ draftId: id })
        .then(async (d) => {
          const t = await getTemplate({ templateId: d.templateId });
          setTemplate(t);
          setDraftId(d.draftId);
          setTitle(d.title);
          setValues({ ...initialValues(t.fields), ...d.values });
          setParties(
            t.roles.map((r) => {
              const a = d.assignments.find((x) => x.roleKey === r.key);
              return a ? partyFromAssignment(a, ownCompanyId) : initialParty(r, !!ownCompanyId);
            }),
          );
        })
        .catch(fail);
    } else {
      const id = params.get('templateId');
      if (!id) return;
      const renew = params.get('renew');
      getTemplate({ templateId: id })
        .then(async (t) => {
          // A renewal (issue 29): the old flow's title and parties, role by role.
          const r = renew ? await getFlowRenewal({ flowId: renew }) : null;
          setTemplate(t);
          setTitle(r?.title ?? t.name);
          setValues(initialValues(t.fields));
          setParties(
            r
              ? renewalParties(t, r.steps, ownCompanyId)
              : t.roles.map((role) => initialParty(role, !!ownCompanyId)),
          );
        })
        .catch(fail);
    }
  }, [isDraft, params, ownCompanyId]);

  if (!template)
    return problem ? <Alert type="error" showIcon title={problem} style={{ margin: 16 }} /> : null;

  const launchFields = launchFieldsOf(template.fields);
  const roomFields = template.fields.filter((f) => f.fillAt === 'room');
  const roleName = (key: string) => template.roles.find((r) => r.key === key)?.name ?? key;
  const groups = [
    { key: INITIATOR_FILLER, title: tt('fieldsOfInitiator') },
    ...template.roles.map((r) => ({ key: r.key, title: tt('fieldsOf', { name: r.name }) })),
  ]
    .map((g) => ({ ...g, fields: launchFields.filter((f) => f.filler === g.key) }))
    .filter((g) => g.fields.length > 0);

  const next = async () => {
    const issue = fillIssue(title, launchFields, values, template.roles, parties);
    if (issue) {
      const { key, ...rest } = issue;
      const params = rest as Record<string, string>;
      if (issue.key === 'badValue') params.reason = ruleMessage(issue.reason, locale);
      return setProblem(tt(key, params));
    }
    setProblem(null);
    setIsSaving(true);
    try {
      const draft = await prepareTemplateLaunch({
        templateId: template.templateId,
        draftId,
        title: title.trim(),
        values: cleanValues(launchFields, values),
        assignments: toAssignments(parties, ownCompanyId),
      });
      const renew = params.get('renew');
      navigate(`${paths.manageTemplateSign}?draftId=${draft.draftId}${renew ? `&renew=${renew}` : ''}`);
    } catch (e) {
      if (e instanceof ApiError) setProblem(e.message);
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <main className="template-detail" style={{ padding: 16, maxWidth: 900 }}>
      <h1 style={{ fontSize: 20 }}>{tt('fillTitle', { name: template.name })}</h1>
      <div style={{ display: 'grid', gap: 4, maxWidth: 480, marginBottom: 16 }}>
        <label htmlFor={titleId}>{tt('contractTitle')}</label>
        <Input id={titleId} value={title} maxLength={100} onChange={(e) => setTitle(e.target.value)} />
      </div>
      {groups.map((g) => (
        <Card key={g.key} size="small" title={g.title} style={{ marginBottom: 12 }}>
          <div
            style={{ display: 'grid', gap: 10, gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))' }}
          >
            {g.fields.map((f) => (
              <FieldInput
                key={f.key}
                field={f}
                value={values[f.key] ?? ''}
                onChange={(v) => setValues((vs) => ({ ...vs, [f.key]: v }))}
              />
            ))}
          </div>
        </Card>
      ))}
      {roomFields.length > 0 ? (
        <Card
          size="small"
          title={tt('roomFieldsTitle')}
          style={{ marginBottom: 12 }}
          data-testid="room-fields"
        >
          <ul style={{ margin: 0, paddingLeft: 18 }}>
            {roomFields.map((f) => (
              <li key={f.key}>
                {f.label} ({tt(TYPE_TEXT_KEY[f.type])}) —{' '}
                {tt('filledWhenSigning', { role: roleName(f.filler) })}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <h2 style={{ fontSize: 16 }}>{tt('partiesTitle')}</h2>
      {template.roles.map((r) => {
        const party = parties.find((p) => p.roleKey === r.key);
        if (!party) return null;
        return (
          <PartyFields
            key={r.key}
            roleName={`${tt('stepN', { n: r.stepIndex + 1 })} · ${r.name}`}
            party={party}
            hasOwnCompany={!!ownCompanyId}
            ownCompanyName={me?.companyName ?? null}
            onChange={(p) => setParties((ps) => ps.map((x) => (x.roleKey === r.key ? p : x)))}
          />
        );
      })}
      {problem ? <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} /> : null}
      <Button type="primary" loading={isSaving} onClick={next}>
        {tt('next')}
      </Button>
    </main>
  );
}
