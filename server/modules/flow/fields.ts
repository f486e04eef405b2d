// Fields the signer fills (issue 28). At launch each party's fields are checked and placed (launch.ts resolves
// their positions like signature positions) and become empty AcroForm fields of their documents; in the room
// the party's signer saves values (fields-room.ts: saveRoomFields, checked by the one rule of
// contract/rules/fields.ts) and uploads attachments; signing (signing.ts) merges the values sent with the saved ones, refuses an incomplete
// required field, and writes the values into each document in the same incremental update as the signature.
// SQL: fields-queries.ts.
import { randomUUID } from 'node:crypto';
import { FIELD_ATTACHMENT_PATH, type FieldDefinition, type FlowField } from '#contract/calls/fields.ts';
import type { Position } from '#contract/calls/flow.ts';
import { chineseOf } from '#contract/bilingual.ts';
import { Code } from '#contract/codes.ts';
import {
  CHOICE_KINDS,
  FIELD_LIMITS,
  FIELD_PROBLEM_TEXT,
  type FieldKind,
  type FieldRule,
  type FieldValue,
  checkFieldValue,
  isFieldComplete,
} from '#contract/rules/fields.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { Text } from '../../http/texts.ts';
import { beijingDate } from '../../lib/beijing-time.ts';
import { isoOrNull, jsonOf } from '../../db/sql-helpers.ts';
import type { ResolvedPosition } from './model.ts';
import * as fq from './fields-queries.ts';
import { F } from './texts.ts';

/** A rule message of contract/rules (English, its Chinese registered with bi) in both languages. */
const ruleText = (en: string): Text => ({ en, zh: chineseOf(en) ?? en });

/** A refusal about one field, naming its label. */
export const fieldRefusal = (label: string, text: Text, fieldId?: string) =>
  new AppError(Code.Refused, F.aboutField(label, text), fieldId ? { data: { fieldId } } : {});

// ---------------------------------------------------------------------------------------------------------
// Launch

/** A field of a party's input, placed: what the launch stores (the party's id set by the caller). */
export type PlannedField = Omit<fq.NewFieldRow, 'partyId' | 'ord'>;

/**
 * Checks a party's fields and resolves their positions: keys unique, options only and always for radio and
 * select, each field on a document the party signs (so its signature covers the value). `partyIndex` makes
 * the PDF field names unique in the flow (`f_<key>_<party index>`).
 */
export async function planPartyFields(
  fields: (FieldDefinition & { position: Position })[],
  partyIndex: number,
  signedDocumentIds: Set<string>,
  resolve: (pos: Position) => Promise<ResolvedPosition>,
): Promise<PlannedField[]> {
  if (fields.length > FIELD_LIMITS.perParty) throw new AppError(Code.Refused, F.tooManyFieldsOfParty);
  const keys = new Set<string>();
  const out: PlannedField[] = [];
  for (const f of fields) {
    const label = f.label.trim();
    if (keys.has(f.key)) throw fieldRefusal(label, F.fieldKeyTwice(f.key));
    keys.add(f.key);
    const isChoice = CHOICE_KINDS.includes(f.kind);
    if (isChoice && !(f.options && f.options.length >= 2)) throw fieldRefusal(label, F.fieldNeedsOptions);
    if (!isChoice && f.options?.length) throw fieldRefusal(label, F.fieldNoOptions);
    if (!signedDocumentIds.has(f.position.documentId)) throw fieldRefusal(label, F.fieldOnUnsignedDocument);
    let placed: ResolvedPosition;
    try {
      placed = await resolve(f.position);
    } catch (error) {
      if (error instanceof AppError && typeof error.text !== 'string') throw fieldRefusal(label, error.text);
      throw error;
    }
    out.push({
      id: randomUUID(),
      documentId: placed.documentId,
      key: f.key,
      label,
      kind: f.kind,
      isRequired: f.isRequired ?? true,
      options: isChoice ? (f.options ?? null) : null,
      page: placed.page,
      rect: placed.rect,
      pdfName: `f_${f.key}_${partyIndex + 1}`,
    });
  }
  return out;
}

/** The empty AcroForm fields of one document, as addFormFields takes them. */
export function formFieldsOf(fields: PlannedField[], documentId: string) {
  return fields
    .filter((f) => f.documentId === documentId)
    .map((f) => ({
      name: f.pdfName,
      kind: f.kind as FieldKind,
      pageIndex: f.page - 1,
      rect: f.rect,
      label: f.label,
      ...(f.options ? { options: f.options } : {}),
    }));
}

// ---------------------------------------------------------------------------------------------------------
// Presenting

const ruleOf = (r: fq.FieldRow): FieldRule => ({
  kind: r.kind as FieldKind,
  isRequired: r.isRequired,
  options: jsonOf<string[] | null>(r.options),
});

/** A stored value as the contract shows it: a checkbox's boolean, text otherwise. */
function savedValueOf(r: fq.FieldRow): FieldValue | null {
  if (r.value === null) return null;
  if (r.kind === 'checkbox') return r.value === 'true';
  return r.value;
}

/** A checked value as stored. */
export const stored = (v: FieldValue | null): string | null =>
  v === null ? null : typeof v === 'boolean' ? String(v) : v;

/** A field as the contract shows it; `roomToken`: the download link of a room's own attachment. */
export function presentField(r: fq.FieldRow, roomToken?: string): FlowField {
  return {
    fieldId: r.id,
    partyId: r.partyId,
    documentId: r.documentId,
    key: r.key,
    label: r.label,
    kind: r.kind as FieldKind,
    isRequired: r.isRequired,
    options: jsonOf<string[] | null>(r.options) ?? null,
    page: r.page,
    rect: jsonOf<[number, number, number, number]>(r.rect),
    value: savedValueOf(r),
    attachment:
      r.attachmentKey && r.attachmentName
        ? {
            name: r.attachmentName,
            mediaType: r.attachmentType ?? 'application/octet-stream',
            size: r.attachmentSize ?? 0,
            sha256: r.attachmentSha256 ?? '',
            downloadUrl: `${FIELD_ATTACHMENT_PATH}/${r.id}${roomToken ? `?roomToken=${encodeURIComponent(roomToken)}` : ''}`,
          }
        : null,
    signedAt: isoOrNull(r.signedAt),
  };
}

export async function flowFields(deps: AppDeps, flowId: string): Promise<FlowField[]> {
  return (await fq.fieldsOfFlow(deps.db, flowId)).map((r) => presentField(r));
}

/** What the launched list's export shows per flow: the filled values, label by label. */
export async function fieldValuesOfFlows(
  deps: AppDeps,
  flowIds: string[],
): Promise<Map<string, { label: string; value: string }[]>> {
  const out = new Map<string, { label: string; value: string }[]>();
  for (const r of await fq.fieldsOfFlows(deps.db, flowIds)) {
    if (!r.signedAt || r.value === null) continue;
    const list = out.get(r.flowId) ?? [];
    list.push({ label: r.label, value: exportText(r) });
    out.set(r.flowId, list);
  }
  return out;
}

const exportText = (r: fq.FieldRow) =>
  r.kind === 'checkbox' ? (r.value === 'true' ? '✓' : '✗') : (r.value ?? '');

/** Checks one value against its field's rule: the value to keep, or 1100 naming the field. */
export function checked(r: fq.FieldRow, raw: FieldValue | null | undefined, now: Date): FieldValue | null {
  const c = checkFieldValue(ruleOf(r), raw, now);
  if (!c.ok) throw fieldRefusal(r.label, ruleText(c.message), r.id);
  return c.value;
}

// ---------------------------------------------------------------------------------------------------------
// Signing

/** What a party's signature writes: per field its final value, and per document the fill of signPdf. */
export type FieldsToSign = {
  values: {
    id: string;
    documentId: string;
    label: string;
    kind: string;
    value: string | null;
    sha256: string | null;
  }[];
  fillOf: (documentId: string) => { name: string; value: string | boolean }[];
};

/**
 * The values a party signs: those sent over those saved, each checked by the rule; a required field that is
 * not complete refuses (1100, the first one named). signDate is the signing date (Beijing), an attachment's
 * value its file name. `sent` undefined: the saved values alone (batch signing).
 */
export async function fieldsToSign(
  deps: AppDeps,
  partyId: string,
  sent: Record<string, FieldValue | null> | undefined,
  now: Date,
): Promise<FieldsToSign> {
  const mine = await fq.fieldsOfParty(deps.db, partyId);
  for (const id of Object.keys(sent ?? {}))
    if (!mine.some((f) => f.id === id)) throw new AppError(Code.NotFound, F.fieldNotFound);
  const values: FieldsToSign['values'] = [];
  const rows = new Map<string, fq.FieldRow>();
  for (const f of mine) {
    if (f.signedAt) continue;
    rows.set(f.id, f);
    let value: string | null;
    if (f.kind === 'signDate') value = beijingDate(now);
    else if (f.kind === 'attachment') {
      if (sent && f.id in sent) checked(f, sent[f.id], now);
      value = f.attachmentName;
    } else {
      const raw = sent && f.id in sent ? sent[f.id] : savedValueOf(f);
      value = stored(checked({ ...f, isRequired: false }, raw, now));
    }
    const state = {
      value: f.kind === 'checkbox' ? value === 'true' : value,
      hasAttachment: !!f.attachmentKey,
    };
    if (!isFieldComplete(ruleOf(f), state))
      throw fieldRefusal(f.label, ruleText(FIELD_PROBLEM_TEXT.required), f.id);
    values.push({
      id: f.id,
      documentId: f.documentId,
      label: f.label,
      kind: f.kind,
      value,
      sha256: f.kind === 'attachment' ? f.attachmentSha256 : null,
    });
  }
  return {
    values,
    fillOf: (documentId) =>
      values
        .filter((v) => v.documentId === documentId && (v.value !== null || v.kind === 'checkbox'))
        .map((v) => ({
          name: rows.get(v.id)!.pdfName,
          value: v.kind === 'checkbox' ? v.value === 'true' : (v.value ?? ''),
        })),
  };
}

/** The audit entry of the fields a signature filled in one document, or null when none. */
export function filledDetail(values: FieldsToSign['values'], documentId: string): string | null {
  const here = values.filter((v) => v.documentId === documentId && v.value !== null);
  if (here.length === 0) return null;
  const names = here.map((v) => (v.sha256 ? `${v.label} (${v.value}, SHA-256 ${v.sha256})` : v.label));
  return `filled fields: ${names.join(', ')}`.slice(0, 2000);
}

/** The values written into one document, stored as signed in the signing transaction. */
export const signedValuesOf = (values: FieldsToSign['values'], documentId: string) =>
  values.filter((v) => v.documentId === documentId).map((v) => ({ id: v.id, value: v.value }));

export const markFieldsSigned = fq.markSigned;
