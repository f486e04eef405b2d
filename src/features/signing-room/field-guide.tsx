// The fields a signer fills in the room before signing (issue 28): guided one by one ("Field 2 of 5 — 3 left"),
// each checked as it is typed with the contract's one rule (contract/rules/fields.ts, which the server runs
// again), saved as the signer goes (saveRoomFields, so a reload keeps them), attachments uploaded on their own.
// No antd here (README: the room's budget): native inputs, a native date input for dates (YYYY-MM-DD).
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  ATTACHMENT_TYPES,
  attachmentHref,
  checkFieldValue,
  FIELD_LIMITS,
  type FieldValue,
  type FlowField,
  isFieldComplete,
  NOT_TYPED_KINDS,
  removeRoomAttachment,
  saveRoomFields,
  uploadRoomAttachment,
} from '@/api/fields.ts';
import { showApiError } from '@/api/http.ts';
import { PlainButton } from '@/components/plain-button.tsx';
import { useI18nStore, useTexts } from '@/i18n/i18n-store.ts';
import { ruleMessage } from '@/lib/rule-message.ts';
import { inputStyle } from './light-ui.tsx';
import { fieldTexts } from './field-texts.ts';

/** How long typing pauses before the values are saved. */
export const SAVE_DELAY_MS = 600;

/** The party's fields in reading order: by document, page, then top to bottom and left to right. */
export function fieldsInOrder(fields: readonly FlowField[], documentIds: readonly string[]): FlowField[] {
  const docOrder = (id: string) => documentIds.indexOf(id);
  return [...fields].sort(
    (a, b) =>
      docOrder(a.documentId) - docOrder(b.documentId) ||
      a.page - b.page ||
      b.rect[3] - a.rect[3] ||
      a.rect[0] - b.rect[0],
  );
}

type Attachment = FlowField['attachment'];
export type FieldEntry = { field: FlowField; raw: FieldValue | null; attachment: Attachment };

const isTyped = (f: FlowField) => !NOT_TYPED_KINDS.includes(f.kind);
const ruleOf = (f: FlowField) => ({ kind: f.kind, isRequired: f.isRequired, options: f.options });

/** The value as the input holds it (a checkbox a boolean, anything else text). */
const initialRaw = (f: FlowField): FieldValue | null =>
  f.kind === 'checkbox' ? f.value === true : typeof f.value === 'string' && isTyped(f) ? f.value : null;

/** An entry's state: the problem to show (null: fine or not typed yet) and whether signing may go on. */
export function entryState(e: FieldEntry): {
  problem: string | null;
  isDone: boolean;
  value: FieldValue | null;
} {
  if (!isTyped(e.field)) {
    return {
      problem: null,
      isDone: isFieldComplete(ruleOf(e.field), { value: null, hasAttachment: !!e.attachment }),
      value: null,
    };
  }
  const check = checkFieldValue(ruleOf(e.field), e.raw);
  if (!check.ok) return { problem: check.message, isDone: false, value: null };
  return {
    problem: null,
    isDone: isFieldComplete(ruleOf(e.field), { value: check.value }),
    value: check.value,
  };
}

/**
 * The state of the party's fields: values as typed, attachments, saving as the signer goes. `left` counts
 * the fields that still stop signing (required and empty, or holding a value the rule refuses).
 */
export function useRoomFields(fields: readonly FlowField[], documentIds: readonly string[], token: string) {
  const ordered = useMemo(() => fieldsInOrder(fields, documentIds), [fields, documentIds]);
  const [entries, setEntries] = useState<FieldEntry[]>(() =>
    ordered.map((field) => ({ field, raw: initialRaw(field), attachment: field.attachment })),
  );
  useEffect(() => {
    setEntries(ordered.map((field) => ({ field, raw: initialRaw(field), attachment: field.attachment })));
  }, [ordered]);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const dirty = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(entries);
  latest.current = entries;

  /** Saves the changed values the rule accepts (a refused one waits until it is fixed). */
  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const values: Record<string, FieldValue | null> = {};
    for (const e of latest.current) {
      if (!dirty.current.has(e.field.fieldId)) continue;
      const s = entryState(e);
      const isEmpty = e.raw === null || e.raw === '' || e.raw === false;
      if (s.problem && !isEmpty) continue;
      values[e.field.fieldId] = s.problem ? (e.field.kind === 'checkbox' ? false : null) : s.value;
      dirty.current.delete(e.field.fieldId);
    }
    if (Object.keys(values).length === 0) return;
    setIsSaving(true);
    try {
      await saveRoomFields({ roomToken: token, values });
      setSaveError(null);
    } catch (error) {
      for (const id of Object.keys(values)) dirty.current.add(id);
      setSaveError(showApiError(error));
    } finally {
      setIsSaving(false);
    }
  }, [token]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const setRaw = (fieldId: string, raw: FieldValue | null) => {
    setEntries((es) => es.map((e) => (e.field.fieldId === fieldId ? { ...e, raw } : e)));
    dirty.current.add(fieldId);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), SAVE_DELAY_MS);
  };
  const setAttachment = (fieldId: string, attachment: Attachment) =>
    setEntries((es) => es.map((e) => (e.field.fieldId === fieldId ? { ...e, attachment } : e)));

  const states = entries.map(entryState);
  const left = states.filter((s) => !s.isDone || s.problem).length;
  /** What signDocument sends: every typed field's value as the rule keeps it. */
  const fieldValues = (): Record<string, FieldValue | null> =>
    Object.fromEntries(
      entries.flatMap((e, i) => (isTyped(e.field) ? [[e.field.fieldId, states[i].value]] : [])),
    );
  return { entries, states, left, setRaw, setAttachment, flush, fieldValues, saveError, isSaving };
}
export type RoomFields = ReturnType<typeof useRoomFields>;

const formatSize = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} kB`;

function AttachmentInput({
  entry,
  token,
  inputId,
  onChange,
}: {
  entry: FieldEntry;
  token: string;
  inputId: string;
  onChange: (a: Attachment) => void;
}) {
  const tt = useTexts(fieldTexts);
  const [error, setError] = useState<string | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const a = entry.attachment;
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (file.size === 0) return setError(tt('attachmentEmpty'));
    if (file.size > FIELD_LIMITS.attachmentBytes) return setError(tt('attachmentSize'));
    const typeOk =
      (ATTACHMENT_TYPES as readonly string[]).includes(file.type) || /\.(png|jpe?g|pdf)$/i.test(file.name);
    if (!typeOk) return setError(tt('attachmentType'));
    setPercent(0);
    try {
      const field = await uploadRoomAttachment(token, entry.field.fieldId, file, (f) =>
        setPercent(Math.round(f * 100)),
      );
      onChange(field.attachment);
    } catch (e) {
      setError(showApiError(e));
    } finally {
      setPercent(null);
    }
  };
  const remove = async () => {
    setError(null);
    try {
      const field = await removeRoomAttachment({ roomToken: token, fieldId: entry.field.fieldId });
      onChange(field.attachment);
    } catch (e) {
      setError(showApiError(e));
    }
  };
  return (
    <div>
      {a ? (
        <div
          data-testid="field-attachment"
          style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap', marginBottom: 8 }}
        >
          <a
            href={attachmentHref(a.downloadUrl, token)}
            target="_blank"
            rel="noreferrer"
            style={{ overflowWrap: 'anywhere' }}
          >
            {a.name}
          </a>
          <span style={{ color: '#666', fontSize: 13 }}>{formatSize(a.size)}</span>
          <PlainButton
            size="small"
            isDanger
            onClick={remove}
            aria-label={tt('attachmentRemove', { name: a.name })}
          >
            ×
          </PlainButton>
        </div>
      ) : null}
      <input
        id={inputId}
        type="file"
        accept={ATTACHMENT_TYPES.join(',')}
        onChange={(e) => {
          void pick(e.target.files?.[0]);
          e.target.value = '';
        }}
        style={{ maxWidth: '100%' }}
      />
      <div style={{ color: '#666', fontSize: 12, marginTop: 4 }}>{tt('attachmentPick')}</div>
      {percent !== null ? <div role="status">{tt('uploading', { percent })}</div> : null}
      {error ? (
        <div role="alert" style={{ color: '#ff4d4f', marginTop: 4 }}>
          {error}
        </div>
      ) : null}
    </div>
  );
}

/** The input of one field, by kind. */
function FieldInput({
  entry,
  token,
  inputId,
  describedBy,
  invalid,
  fields,
}: {
  entry: FieldEntry;
  token: string;
  inputId: string;
  describedBy?: string;
  invalid: boolean;
  fields: RoomFields;
}) {
  const tt = useTexts(fieldTexts);
  const f = entry.field;
  const a11y = { id: inputId, 'aria-invalid': invalid, 'aria-describedby': describedBy };
  const text = typeof entry.raw === 'string' ? entry.raw : '';
  const set = (v: FieldValue | null) => fields.setRaw(f.fieldId, v);
  switch (f.kind) {
    case 'multiline':
      return (
        <textarea
          {...a11y}
          rows={4}
          maxLength={FIELD_LIMITS.multiline}
          value={text}
          onChange={(e) => set(e.target.value)}
          style={inputStyle}
        />
      );
    case 'checkbox':
      return (
        <input
          {...a11y}
          type="checkbox"
          checked={entry.raw === true}
          onChange={(e) => set(e.target.checked)}
          style={{ width: 22, height: 22 }}
        />
      );
    case 'radio':
      return (
        <div
          role="radiogroup"
          aria-labelledby={`${inputId}-label`}
          {...(describedBy ? { 'aria-describedby': describedBy } : {})}
        >
          {(f.options ?? []).map((o) => (
            <label key={o} style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '4px 0' }}>
              <input type="radio" name={inputId} checked={text === o} onChange={() => set(o)} />
              {o}
            </label>
          ))}
        </div>
      );
    case 'select':
      return (
        <select {...a11y} value={text} onChange={(e) => set(e.target.value || null)} style={inputStyle}>
          <option value="">{tt('choose')}</option>
          {(f.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
    case 'date':
      return (
        <input {...a11y} type="date" value={text} onChange={(e) => set(e.target.value)} style={inputStyle} />
      );
    case 'signDate':
      return (
        <div id={inputId} data-testid="sign-date-note" style={{ color: '#666' }}>
          {tt('signDateNote')}
        </div>
      );
    case 'attachment':
      return (
        <AttachmentInput
          entry={entry}
          token={token}
          inputId={inputId}
          onChange={(att) => fields.setAttachment(f.fieldId, att)}
        />
      );
    default:
      return (
        <input
          {...a11y}
          value={text}
          maxLength={FIELD_LIMITS.text}
          inputMode={f.kind === 'number' ? 'decimal' : f.kind === 'phone' ? 'tel' : undefined}
          autoComplete="off"
          onChange={(e) => set(e.target.value)}
          style={inputStyle}
        />
      );
  }
}

/** The guide: one field at a time, with the count left, Previous and Next. */
export function FieldGuide({
  fields,
  token,
  index,
  onIndex,
}: {
  fields: RoomFields;
  token: string;
  index: number;
  /** Another field is shown: the room jumps to its box on the page. */
  onIndex: (index: number) => void;
}) {
  const tt = useTexts(fieldTexts);
  const locale = useI18nStore((s) => s.locale);
  const baseId = useId();
  // A required field's "this field is required" shows once the signer has been at it and moved on or typed.
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const entry = fields.entries[index];
  if (!entry) return null;
  const state = fields.states[index];
  const f = entry.field;
  const inputId = `${baseId}-${f.fieldId}`;
  const isEmpty = entry.raw === null || entry.raw === '' || entry.raw === false;
  const showProblem = state.problem && (!isEmpty || touched.has(f.fieldId)) ? state.problem : null;
  const error = showProblem ? ruleMessage(showProblem, locale) : null;
  const go = (next: number) => {
    setTouched((t) => new Set(t).add(f.fieldId));
    void fields.flush();
    onIndex(next);
  };
  const total = fields.entries.length;
  return (
    <section
      data-testid="field-guide"
      aria-label={tt('guideTitle')}
      style={{
        border: '1px solid #91caff',
        background: '#f0f7ff',
        borderRadius: 8,
        padding: 12,
        marginBottom: 16,
      }}
    >
      <h3 style={{ fontSize: 15, margin: '0 0 4px' }}>{tt('guideTitle')}</h3>
      <p style={{ margin: '0 0 8px', color: '#555', fontSize: 13 }}>{tt('guideIntro')}</p>
      <div
        data-testid="field-progress"
        aria-live="polite"
        style={{ fontSize: 13, color: '#333', marginBottom: 8 }}
      >
        {tt('progress', { n: index + 1, total, left: fields.left })}
      </div>
      <div
        style={{ marginBottom: 12 }}
        onBlur={() => setTouched((t) => (t.has(f.fieldId) ? t : new Set(t).add(f.fieldId)))}
      >
        <label
          id={`${inputId}-label`}
          htmlFor={f.kind === 'radio' || f.kind === 'signDate' ? undefined : inputId}
          style={{ display: 'block', marginBottom: 6, fontWeight: 600 }}
        >
          {f.label}{' '}
          <span style={{ fontWeight: 400, color: '#888', fontSize: 12 }}>
            {f.isRequired ? tt('requiredMark') : tt('optional')}
          </span>
        </label>
        <FieldInput
          key={f.fieldId}
          entry={entry}
          token={token}
          inputId={inputId}
          describedBy={error ? `${inputId}-error` : undefined}
          invalid={Boolean(error)}
          fields={fields}
        />
        {error ? (
          <div
            id={`${inputId}-error`}
            role="alert"
            data-testid="field-error"
            style={{ color: '#ff4d4f', marginTop: 4 }}
          >
            {error}
          </div>
        ) : null}
      </div>
      {fields.saveError ? (
        <div role="alert" style={{ color: '#ff4d4f', marginBottom: 8 }}>
          {fields.saveError}
        </div>
      ) : null}
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
        <PlainButton data-testid="field-previous" disabled={index === 0} onClick={() => go(index - 1)}>
          {tt('previous')}
        </PlainButton>
        <PlainButton
          kind="primary"
          data-testid="field-next"
          disabled={index >= total - 1}
          onClick={() => go(index + 1)}
        >
          {tt('next')}
        </PlainButton>
        <span role="status" style={{ color: '#888', fontSize: 12 }}>
          {fields.isSaving ? tt('saving') : ''}
        </span>
      </div>
    </section>
  );
}

/** The values of a party that signed (read only). */
export function FilledValues({ fields, token }: { fields: readonly FlowField[]; token: string }) {
  const tt = useTexts(fieldTexts);
  if (fields.length === 0) return null;
  return (
    <section data-testid="filled-values" style={{ marginBottom: 16 }}>
      <h3 style={{ fontSize: 15, margin: '0 0 8px' }}>{tt('yourValues')}</h3>
      <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', gap: '4px 12px' }}>
        {fields.map((f) => (
          <div key={f.fieldId} style={{ display: 'contents' }}>
            <dt style={{ color: '#666' }}>{f.label}</dt>
            <dd style={{ margin: 0, overflowWrap: 'anywhere' }}>
              {f.attachment ? (
                <a href={attachmentHref(f.attachment.downloadUrl, token)} target="_blank" rel="noreferrer">
                  {f.attachment.name}
                </a>
              ) : f.kind === 'checkbox' ? (
                tt(f.value === true ? 'yes' : 'no')
              ) : (
                (f.value ?? '—')
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
