// The template as edited on the screen: fields may not be placed yet; the checks the server makes too, so
// the user sees a localised message before any call.
import type { Applies } from '@/api/flow.ts';
import type { SignConfig } from '@/api/sign-config.ts';
import { checkFieldValue } from '#contract/rules/fields.ts';
import {
  type FieldType,
  INITIATOR_FILLER,
  LAUNCH_FIELD_TYPES,
  type TemplateField,
  type TemplateRole,
} from '@/api/template.ts';

type Rect = [number, number, number, number];
export type EditField = Omit<TemplateField, 'page' | 'rect'> & { page?: number; rect?: Rect };

let counter = 0;
const newKey = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

/** The text key naming each kind. */
export const TYPE_TEXT_KEY = {
  text: 'text',
  multiline: 'multiline',
  number: 'number',
  date: 'dateType',
  signDate: 'signDate',
  checkbox: 'checkbox',
  radio: 'radio',
  select: 'select',
  idNumber: 'idNumber',
  phone: 'phone',
  attachment: 'attachment',
} as const satisfies Record<FieldType, string>;

/** Size of a new box, in points, as it reads on the page. */
export const FIELD_SIZE_PT: Record<FieldType, { widthPt: number; heightPt: number }> = {
  text: { widthPt: 160, heightPt: 20 },
  multiline: { widthPt: 220, heightPt: 60 },
  number: { widthPt: 100, heightPt: 20 },
  date: { widthPt: 100, heightPt: 20 },
  signDate: { widthPt: 100, heightPt: 20 },
  checkbox: { widthPt: 16, heightPt: 16 },
  radio: { widthPt: 120, heightPt: 20 },
  select: { widthPt: 120, heightPt: 20 },
  idNumber: { widthPt: 160, heightPt: 20 },
  phone: { widthPt: 110, heightPt: 20 },
  attachment: { widthPt: 160, heightPt: 20 },
};

/** Kinds with options (a radio group, a drop-down). */
export const hasOptions = (type: FieldType) => type === 'radio' || type === 'select';
/** Kinds only a signer fills in the room (no initiator value: the signing date, an upload). */
export const isRoomOnly = (type: FieldType) => !LAUNCH_FIELD_TYPES.includes(type);
export const POSITION_SIZE_PT = {
  company: { widthPt: 120, heightPt: 120 },
  person: { widthPt: 100, heightPt: 50 },
};

/**
 * A new field: filled by the initiator at launch, except the kinds only a signer fills (signing date,
 * attachment), which go to the last role in the signing room.
 */
export function newField(type: FieldType, label: string, roles: TemplateRole[] = []): EditField {
  const lastRole = roles.at(-1);
  const inRoom = isRoomOnly(type) && !!lastRole;
  return {
    key: newKey('f'),
    label,
    type,
    isRequired: type !== 'signDate' && inRoom,
    defaultValue: null,
    filler: inRoom && lastRole ? lastRole.key : INITIATOR_FILLER,
    fillAt: inRoom ? 'room' : 'launch',
    ...(hasOptions(type) ? { options: [] } : {}),
  };
}

/** "Who fills it" as one choice: `launch:initiator`, `launch:<role>` or `room:<role>`. */
export const fillerChoice = (f: Pick<EditField, 'filler' | 'fillAt'>) =>
  `${f.fillAt ?? 'launch'}:${f.filler}`;
export function parseFillerChoice(v: string): Pick<EditField, 'filler' | 'fillAt'> {
  const at = v.indexOf(':');
  return { fillAt: v.slice(0, at) === 'room' ? 'room' : 'launch', filler: v.slice(at + 1) };
}

export function newRole(name: string, kind: 'person' | 'company', stepIndex: number): TemplateRole {
  const applies: Applies =
    kind === 'company'
      ? {
          companySealType: 102,
          legalPersonSeal: false,
          personSignature: false,
          date: true,
          crossPageSeal: false,
        }
      : {
          companySealType: null,
          legalPersonSeal: false,
          personSignature: true,
          date: true,
          crossPageSeal: false,
        };
  return { key: newKey('r'), name, kind, applies, stepIndex };
}

/** The roles a template gets from a configuration (what the server copies on save). */
export const rolesOfConfig = (c: SignConfig): TemplateRole[] =>
  c.steps.flatMap((s, stepIndex) =>
    s.parties.map((p) => ({
      key: p.key,
      name: p.name,
      kind: p.kind,
      stepIndex,
      applies: {
        companySealType: p.applies.companySealType ?? null,
        legalPersonSeal: p.applies.legalPersonSeal,
        personSignature: p.applies.personSignature,
        date: p.applies.date,
        crossPageSeal: p.applies.crossPageSeal,
      },
    })),
  );

/** Whether a default value (text) fits the field's type (the value rule of contract/rules/fields.ts). */
function defaultFits(f: EditField): boolean {
  const v = f.defaultValue?.trim();
  if (!v || f.fillAt === 'room') return true;
  if (f.type === 'checkbox') return v === 'true' || v === 'false';
  return checkFieldValue({ kind: f.type, isRequired: false, options: f.options }, v).ok;
}

/** Options as typed (one a line), trimmed, without empty lines. */
export const optionsOf = (text: string) =>
  text
    .split(/\r?\n/)
    .map((o) => o.trim())
    .filter(Boolean);

type EditorIssue =
  | { key: 'labelRequired' }
  | { key: 'roleNameRequired' }
  | { key: 'fieldNotPlaced'; label: string }
  | { key: 'badDefault'; label: string }
  | { key: 'optionsNeeded'; label: string }
  | { key: 'roomNeedsRole'; label: string; type: FieldType };

export function editorIssue(roles: TemplateRole[], fields: EditField[]): EditorIssue | null {
  if (roles.some((r) => !r.name.trim())) return { key: 'roleNameRequired' };
  for (const f of fields) {
    if (!f.label.trim()) return { key: 'labelRequired' };
    if (!f.page || !f.rect) return { key: 'fieldNotPlaced', label: f.label };
    const isRoleRoom = f.fillAt === 'room' && roles.some((r) => r.key === f.filler);
    if ((isRoomOnly(f.type) || f.fillAt === 'room') && !isRoleRoom)
      return { key: 'roomNeedsRole', label: f.label, type: f.type };
    if (hasOptions(f.type)) {
      const o = f.options ?? [];
      if (o.length < 2 || new Set(o).size !== o.length) return { key: 'optionsNeeded', label: f.label };
    }
    if (!defaultFits(f)) return { key: 'badDefault', label: f.label };
  }
  return null;
}

/** Roles renumbered so that steps run 0..n-1 without gaps (the server refuses gaps). */
export function compactSteps(roles: TemplateRole[]): TemplateRole[] {
  const used = [...new Set(roles.map((r) => r.stepIndex))].sort((a, b) => a - b);
  return roles.map((r) => ({ ...r, stepIndex: used.indexOf(r.stepIndex) }));
}

export const placedFields = (fields: EditField[]): TemplateField[] =>
  fields.filter((f): f is TemplateField => !!f.page && !!f.rect);
