import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import { useEffect, useId, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { SEAL_TYPE_NAMES, SEAL_TYPES, SealType } from '#contract/enums.ts';
import { ApiError } from '@/api/http.ts';
import { listSignConfigs, type SignConfig } from '@/api/sign-config.ts';
import {
  FIELD_TYPES,
  type FieldType,
  getTemplate,
  INITIATOR_FILLER,
  saveTemplate,
  type Template,
  type TemplatePosition,
  type TemplateRole,
  templatePdfUrl,
} from '@/api/template.ts';
import { paths } from '@/config/paths.ts';
import { type PageGeometry, PdfViewer } from '@/components/pdf-viewer.tsx';
import { boxCentredAt } from '@/components/pdf-viewer/coords.ts';
import { pointIn } from '@/components/pdf-viewer.tsx';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';
import { FIELD_COLOR, MovableBox, ROLE_COLORS } from './movable-box.tsx';
import {
  compactSteps,
  type EditField,
  editorIssue,
  FIELD_SIZE_PT,
  fillerChoice,
  hasOptions,
  isRoomOnly,
  newField,
  optionsOf,
  parseFillerChoice,
  TYPE_TEXT_KEY,
  newRole,
  POSITION_SIZE_PT,
  placedFields,
  rolesOfConfig,
} from './template-model.ts';
import { texts } from './texts.ts';

const DRAG_TYPE = 'text/x-esign-template-item';

/** What is being placed: a field or a role's signing position. */
type Item = { kind: 'field'; key: string } | { kind: 'role'; key: string };
const itemId = (i: Item) => `${i.kind}:${i.key}`;
const parseItem = (s: string): Item | null => {
  const [kind, key] = s.split(':');
  return (kind === 'field' || kind === 'role') && key ? { kind, key } : null;
};

/** /manage/fileTemplate/editFileTemplate?templateId=: roles, fields and signing positions of a template. */
export default function TemplateEditPage() {
  const tt = useTexts(texts);
  const locale = useI18nStore((s) => s.locale);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const templateId = params.get('templateId') ?? '';
  const nameId = useId();
  const descId = useId();
  const [template, setTemplate] = useState<Template | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [configs, setConfigs] = useState<SignConfig[]>([]);
  const [signConfigId, setSignConfigId] = useState<string | null>(null);
  const [roles, setRoles] = useState<TemplateRole[]>([]);
  const [fields, setFields] = useState<EditField[]>([]);
  const [positions, setPositions] = useState<TemplatePosition[]>([]);
  const [selected, setSelected] = useState<Item | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const url = useMemo(() => (templateId ? templatePdfUrl(templateId) : ''), [templateId]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: tt is a new function each render; loading once per id is the point
  useEffect(() => {
    if (!templateId) return;
    getTemplate({ templateId })
      .then((t) => {
        setTemplate(t);
        setName(t.name);
        setDescription(t.description ?? '');
        setSignConfigId(t.signConfigId);
        setFields(t.fields);
        setPositions(t.positions);
        setRoles(
          t.roles.length > 0
            ? t.roles
            : [newRole(tt('defaultRoleA'), 'company', 0), newRole(tt('defaultRoleB'), 'person', 1)],
        );
      })
      .catch((e) => setProblem(tt('loadFailed', { reason: e instanceof Error ? e.message : String(e) })));
    listSignConfigs({ pageNum: 1, pageSize: 100 })
      .then((r) => setConfigs(r.list))
      .catch(() => undefined);
  }, [templateId]);

  const roleColor = (key: string) =>
    ROLE_COLORS[
      Math.max(
        0,
        roles.findIndex((r) => r.key === key),
      ) % ROLE_COLORS.length
    ];
  const isFromConfig = signConfigId !== null;

  const chooseConfig = (id: string | null) => {
    setSignConfigId(id);
    const config = configs.find((c) => c.configId === id);
    if (!config) return;
    const next = rolesOfConfig(config);
    setRoles(next);
    const keys = new Set(next.map((r) => r.key));
    setPositions((ps) => ps.filter((p) => keys.has(p.roleKey)));
    setFields((fs) =>
      fs.map((f) =>
        f.filler === INITIATOR_FILLER || keys.has(f.filler)
          ? f
          : // the role is gone: the initiator fills it at launch (a kind only a signer fills asks for a role on save)
            { ...f, filler: INITIATOR_FILLER, fillAt: 'launch' as const },
      ),
    );
  };

  const placeAt = (item: Item, g: PageGeometry, point: { x: number; y: number }) => {
    if (item.kind === 'field') {
      const f = fields.find((x) => x.key === item.key);
      if (!f) return;
      const rect = g.toPdf(boxCentredAt(g.page, g.scale, point, FIELD_SIZE_PT[f.type]));
      setFields((fs) => fs.map((x) => (x.key === f.key ? { ...x, page: g.pageNumber, rect } : x)));
    } else {
      const role = roles.find((r) => r.key === item.key);
      if (!role) return;
      const rect = g.toPdf(boxCentredAt(g.page, g.scale, point, POSITION_SIZE_PT[role.kind]));
      setPositions((ps) => [
        ...ps.filter((p) => p.roleKey !== role.key),
        { roleKey: role.key, page: g.pageNumber, rect },
      ]);
    }
  };

  const renderOverlay = (g: PageGeometry) => (
    <div
      data-testid={`template-page-${g.pageNumber}`}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes(DRAG_TYPE)) e.preventDefault();
      }}
      onDrop={(e) => {
        const item = parseItem(e.dataTransfer.getData(DRAG_TYPE));
        if (!item) return;
        e.preventDefault();
        placeAt(item, g, pointIn(e));
        setSelected(item);
      }}
      onClick={(e) => {
        if (selected) placeAt(selected, g, pointIn(e));
      }}
      style={{ position: 'absolute', inset: 0, cursor: selected ? 'copy' : 'default' }}
    >
      {fields.map((f) =>
        f.page === g.pageNumber && f.rect ? (
          <MovableBox
            key={f.key}
            testId="field-box"
            label={f.label}
            color={FIELD_COLOR}
            box={g.toScreen(f.rect)}
            geometry={g}
            isSelected={selected?.key === f.key}
            onMove={(box) => {
              const rect = g.toPdf(box);
              setFields((fs) => fs.map((x) => (x.key === f.key ? { ...x, rect } : x)));
            }}
            onRemove={() =>
              setFields((fs) =>
                fs.map((x) => (x.key === f.key ? { ...x, page: undefined, rect: undefined } : x)),
              )
            }
            removeLabel={tt('removeField', { label: f.label })}
          />
        ) : null,
      )}
      {positions.map((p) => {
        const role = roles.find((r) => r.key === p.roleKey);
        if (!role || p.page !== g.pageNumber) return null;
        return (
          <MovableBox
            key={p.roleKey}
            testId="position-box"
            label={tt('signingPosition', { name: role.name })}
            color={roleColor(role.key)}
            box={g.toScreen(p.rect)}
            geometry={g}
            isSelected={selected?.key === role.key}
            onMove={(box) => {
              const rect = g.toPdf(box);
              setPositions((ps) => ps.map((x) => (x.roleKey === p.roleKey ? { ...x, rect } : x)));
            }}
            onRemove={() => setPositions((ps) => ps.filter((x) => x.roleKey !== p.roleKey))}
            removeLabel={tt('removeRole', { name: role.name })}
          />
        );
      })}
    </div>
  );

  const chip = (item: Item, label: string, color: string, placedPage?: number) => (
    <button
      type="button"
      draggable
      data-testid="place-chip"
      onDragStart={(e) => {
        e.dataTransfer.setData(DRAG_TYPE, itemId(item));
        e.dataTransfer.effectAllowed = 'copy';
      }}
      onClick={() => setSelected(selected && itemId(selected) === itemId(item) ? null : item)}
      aria-pressed={selected ? itemId(selected) === itemId(item) : false}
      style={{
        border: `1px solid ${color}`,
        background: selected && itemId(selected) === itemId(item) ? `${color}33` : '#fff',
        color,
        borderRadius: 4,
        padding: '2px 8px',
        cursor: 'grab',
        fontSize: 12,
      }}
    >
      ⠿ {label} · {placedPage ? tt('placed', { page: placedPage }) : tt('notPlaced')}
    </button>
  );

  const setRole = (key: string, patch: Partial<TemplateRole>) =>
    setRoles((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const setField = (key: string, patch: Partial<EditField>) =>
    setFields((fs) => fs.map((f) => (f.key === key ? { ...f, ...patch } : f)));

  const save = async () => {
    const issue = editorIssue(roles, fields);
    if (issue)
      return setProblem(
        tt(
          issue.key,
          issue.key === 'roomNeedsRole'
            ? { label: issue.label, type: tt(TYPE_TEXT_KEY[issue.type]) }
            : 'label' in issue
              ? { label: issue.label }
              : undefined,
        ),
      );
    setProblem(null);
    setIsSaving(true);
    try {
      const saved = await saveTemplate({
        templateId,
        name: name.trim(),
        description: description.trim() || undefined,
        signConfigId,
        roles: isFromConfig ? [] : compactSteps(roles.map((r) => ({ ...r, name: r.name.trim() }))),
        fields: placedFields(
          fields.map(({ options, ...f }) => ({
            ...f,
            label: f.label.trim(),
            defaultValue: f.fillAt === 'room' ? null : f.defaultValue?.trim() || null,
            ...(hasOptions(f.type) ? { options } : {}),
          })),
        ),
        positions,
      });
      setTemplate(saved);
      notify.success(tt('saved'), 2000);
      navigate(`${paths.manageFileTemplatePreview}?templateId=${saved.templateId}`);
    } catch (e) {
      if (e instanceof ApiError) setProblem(e.message);
    } finally {
      setIsSaving(false);
    }
  };

  const stepCount = Math.max(1, ...roles.map((r) => r.stepIndex + 1)) + 1;
  const companyTypes = SEAL_TYPES.filter((t) => t !== SealType.LegalPerson);

  return (
    <main className="template-edit" style={{ padding: 16 }}>
      <h1 style={{ fontSize: 20 }}>{tt('editTitle')}</h1>
      {problem ? <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} /> : null}
      <div
        className="template-edit-grid"
        style={{
          display: 'grid',
          gridTemplateColumns: 'minmax(0, 1fr) minmax(300px, 420px)',
          gap: 16,
          alignItems: 'start',
        }}
      >
        {template ? (
          <PdfViewer
            url={url}
            pageSizes={template.pageSizes}
            label={template.documentName}
            height="78vh"
            renderOverlay={renderOverlay}
          />
        ) : (
          <div />
        )}
        <aside style={{ display: 'grid', gap: 12 }}>
          <label htmlFor={nameId}>{tt('name')}</label>
          <Input id={nameId} value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
          <label htmlFor={descId}>{tt('description')}</label>
          <Input
            id={descId}
            value={description}
            maxLength={200}
            onChange={(e) => setDescription(e.target.value)}
          />

          <h2 style={{ fontSize: 16, margin: '8px 0 0' }}>{tt('rolesFrom')}</h2>
          <Radio.Group
            value={isFromConfig ? 'config' : 'hand'}
            onChange={(e) => {
              if (e.target.value === 'hand') setSignConfigId(null);
              else if (configs[0]) chooseConfig(configs[0].configId);
            }}
            options={[
              { label: tt('rolesByHand'), value: 'hand' },
              { label: tt('rolesFromConfig'), value: 'config', disabled: configs.length === 0 },
            ]}
          />
          {isFromConfig ? (
            <Select
              aria-label={tt('chooseConfig')}
              value={signConfigId}
              onChange={(v) => chooseConfig(v)}
              options={configs.map((c) => ({ label: c.name, value: c.configId }))}
            />
          ) : null}
          {roles.map((r) => (
            <div
              key={r.key}
              data-testid="template-role"
              style={{ display: 'flex', flexWrap: 'wrap', gap: 6, alignItems: 'center' }}
            >
              {chip(
                { kind: 'role', key: r.key },
                r.name || '?',
                roleColor(r.key),
                positions.find((p) => p.roleKey === r.key)?.page,
              )}
              {isFromConfig ? (
                <span style={{ color: '#999', fontSize: 12 }}>
                  {tt('stepN', { n: r.stepIndex + 1 })} ·{' '}
                  {r.kind === 'company' ? tt('company') : tt('person')}
                </span>
              ) : (
                <>
                  <Input
                    aria-label={tt('roleName')}
                    value={r.name}
                    maxLength={32}
                    style={{ width: 90 }}
                    onChange={(e) => setRole(r.key, { name: e.target.value })}
                  />
                  <Select
                    aria-label={tt('kind')}
                    value={r.kind}
                    style={{ width: 90 }}
                    onChange={(kind) =>
                      setRole(r.key, { kind, applies: newRole(r.name, kind, r.stepIndex).applies })
                    }
                    options={[
                      { label: tt('person'), value: 'person' },
                      { label: tt('company'), value: 'company' },
                    ]}
                  />
                  <Select
                    aria-label={tt('step')}
                    value={r.stepIndex}
                    style={{ width: 90 }}
                    onChange={(stepIndex) => setRole(r.key, { stepIndex })}
                    options={Array.from({ length: stepCount }, (_, i) => ({
                      label: tt('stepN', { n: i + 1 }),
                      value: i,
                    }))}
                  />
                  {r.kind === 'company' ? (
                    <>
                      <Select
                        aria-label={tt('sealType')}
                        value={r.applies.companySealType ?? 0}
                        style={{ width: 130 }}
                        onChange={(v) =>
                          setRole(r.key, { applies: { ...r.applies, companySealType: v === 0 ? null : v } })
                        }
                        options={[
                          { label: tt('noCompanySeal'), value: 0 },
                          ...companyTypes.map((t) => ({
                            label: SEAL_TYPE_NAMES[t][locale === 'zh-CN' ? 'zh' : 'en'],
                            value: t,
                          })),
                        ]}
                      />
                      <Checkbox
                        checked={r.applies.legalPersonSeal}
                        onChange={(e) =>
                          setRole(r.key, { applies: { ...r.applies, legalPersonSeal: e.target.checked } })
                        }
                      >
                        {tt('legalPersonSeal')}
                      </Checkbox>
                    </>
                  ) : null}
                  <Checkbox
                    checked={r.applies.date}
                    onChange={(e) => setRole(r.key, { applies: { ...r.applies, date: e.target.checked } })}
                  >
                    {tt('date')}
                  </Checkbox>
                  {roles.length > 1 ? (
                    <Button
                      size="small"
                      danger
                      aria-label={tt('removeRole', { name: r.name })}
                      onClick={() => {
                        setRoles((rs) => rs.filter((x) => x.key !== r.key));
                        setPositions((ps) => ps.filter((p) => p.roleKey !== r.key));
                      }}
                    >
                      ×
                    </Button>
                  ) : null}
                </>
              )}
            </div>
          ))}
          {isFromConfig ? null : (
            <Button
              size="small"
              onClick={() => setRoles((rs) => [...rs, newRole('', 'person', stepCount - 1)])}
            >
              {tt('addRole')}
            </Button>
          )}

          <h2 style={{ fontSize: 16, margin: '8px 0 0' }}>{tt('fields')}</h2>
          <p style={{ color: '#999', fontSize: 12, margin: 0 }}>{tt('placeHint')}</p>
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 6 }}>
            {FIELD_TYPES.map((type: FieldType) => (
              <Button
                key={type}
                size="small"
                onClick={() => {
                  const f = newField(type, `${tt(TYPE_TEXT_KEY[type])} ${fields.length + 1}`, roles);
                  setFields((fs) => [...fs, f]);
                  setSelected({ kind: 'field', key: f.key });
                }}
              >
                {tt('addField', { type: tt(TYPE_TEXT_KEY[type]) })}
              </Button>
            ))}
          </div>
          {fields.map((f) => (
            <div
              key={f.key}
              data-testid="template-field"
              style={{ border: '1px solid #eee', borderRadius: 4, padding: 8, display: 'grid', gap: 6 }}
            >
              <div style={{ display: 'flex', justifyContent: 'space-between', gap: 6 }}>
                {chip({ kind: 'field', key: f.key }, f.label || '?', FIELD_COLOR, f.page)}
                <Button
                  size="small"
                  danger
                  aria-label={tt('removeField', { label: f.label })}
                  onClick={() => setFields((fs) => fs.filter((x) => x.key !== f.key))}
                >
                  ×
                </Button>
              </div>
              <div style={{ display: 'flex', flexWrap: 'wrap', gap: 6, alignItems: 'center' }}>
                <Input
                  aria-label={tt('fieldLabel')}
                  value={f.label}
                  maxLength={40}
                  style={{ width: 130 }}
                  onChange={(e) => setField(f.key, { label: e.target.value })}
                />
                <Select
                  aria-label={tt('fieldType')}
                  value={f.type}
                  style={{ width: 130 }}
                  onChange={(type) =>
                    setField(f.key, {
                      type,
                      defaultValue: null,
                      options: hasOptions(type) ? (f.options ?? []) : undefined,
                      // A kind only a signer fills moves an initiator's field to the last role, in the room.
                      ...(isRoomOnly(type) && f.fillAt !== 'room'
                        ? { fillAt: 'room' as const, filler: roles.at(-1)?.key ?? f.filler }
                        : {}),
                    })
                  }
                  options={FIELD_TYPES.map((type) => ({ label: tt(TYPE_TEXT_KEY[type]), value: type }))}
                />
                <Select
                  aria-label={tt('fillAt')}
                  value={fillerChoice(f)}
                  style={{ minWidth: 200 }}
                  onChange={(v) => setField(f.key, { ...parseFillerChoice(v), defaultValue: null })}
                  options={[
                    ...(isRoomOnly(f.type)
                      ? []
                      : [
                          { label: tt('fillInitiator'), value: `launch:${INITIATOR_FILLER}` },
                          ...roles.map((r) => ({
                            label: tt('fillRoleAtLaunch', { name: r.name || '?' }),
                            value: `launch:${r.key}`,
                          })),
                        ]),
                    ...roles.map((r) => ({
                      label: tt('fillRoleInRoom', { name: r.name || '?' }),
                      value: `room:${r.key}`,
                    })),
                  ]}
                />
                <Checkbox
                  checked={f.isRequired}
                  onChange={(e) => setField(f.key, { isRequired: e.target.checked })}
                >
                  {tt('required')}
                </Checkbox>
                {f.fillAt === 'room' ? (
                  <span style={{ color: '#999', fontSize: 12 }}>{tt('filledInRoom')}</span>
                ) : f.type === 'checkbox' ? (
                  <Checkbox
                    checked={f.defaultValue === 'true'}
                    onChange={(e) => setField(f.key, { defaultValue: e.target.checked ? 'true' : null })}
                  >
                    {tt('defaultValue')}: {tt('ticked')}
                  </Checkbox>
                ) : hasOptions(f.type) ? (
                  <Select
                    aria-label={tt('defaultValue')}
                    placeholder={tt('defaultValue')}
                    allowClear
                    value={f.defaultValue ?? undefined}
                    style={{ width: 140 }}
                    onChange={(v) => setField(f.key, { defaultValue: v ?? null })}
                    options={(f.options ?? []).map((o) => ({ label: o, value: o }))}
                  />
                ) : (
                  <Input
                    aria-label={tt('defaultValue')}
                    placeholder={tt('defaultValue')}
                    value={f.defaultValue ?? ''}
                    style={{ width: 140 }}
                    type={f.type === 'date' ? 'date' : 'text'}
                    inputMode={f.type === 'number' ? 'decimal' : undefined}
                    onChange={(e) => setField(f.key, { defaultValue: e.target.value })}
                  />
                )}
              </div>
              {hasOptions(f.type) ? (
                <Input.TextArea
                  aria-label={tt('options')}
                  placeholder={tt('options')}
                  autoSize={{ minRows: 2, maxRows: 6 }}
                  defaultValue={(f.options ?? []).join('\n')}
                  onChange={(e) => setField(f.key, { options: optionsOf(e.target.value) })}
                />
              ) : null}
            </div>
          ))}
          <div style={{ display: 'flex', gap: 12, marginTop: 8 }}>
            <Button type="primary" loading={isSaving} onClick={save} disabled={!template}>
              {tt('save')}
            </Button>
            <Button onClick={() => navigate(paths.manageFileTemplate)}>{tt('backToList')}</Button>
          </div>
        </aside>
      </div>
    </main>
  );
}
