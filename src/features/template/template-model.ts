// The template as edited on the screen: fields may not be placed yet; the checks the server makes too, so
// the user sees a localised message before any call.
import type { Applies } from '@/api/flow.ts';
import type { SignConfig } from '@/api/sign-config.ts';
import {
  type FieldType,
  isCalendarDate,
  NUMBER_PATTERN,
  type TemplateField,
  type TemplateRole,
} from '@/api/template.ts';

type Rect = [number, number, number, number];
export type EditField = Omit<TemplateField, 'page' | 'rect'> & { page?: number; rect?: Rect };

let counter = 0;
const newKey = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

/** Size of a new box, in points, as it reads on the page. */
export const FIELD_SIZE_PT: Record<FieldType, { widthPt: number; heightPt: number }> = {
  text: { widthPt: 160, heightPt: 20 },
  number: { widthPt: 100, heightPt: 20 },
  date: { widthPt: 100, heightPt: 20 },
  checkbox: { widthPt: 16, heightPt: 16 },
};
export const POSITION_SIZE_PT = {
  company: { widthPt: 120, heightPt: 120 },
  person: { widthPt: 100, heightPt: 50 },
};

export function newField(type: FieldType, label: string): EditField {
  return { key: newKey('f'), label, type, isRequired: false, defaultValue: null, filler: 'initiator' };
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

/** Whether a default value (text) fits the field's type. */
function defaultFits(f: EditField): boolean {
  const v = f.defaultValue?.trim();
  if (!v) return true;
  if (f.type === 'number') return NUMBER_PATTERN.test(v);
  if (f.type === 'date') return isCalendarDate(v);
  if (f.type === 'checkbox') return v === 'true' || v === 'false';
  return true;
}

type EditorIssue =
  | { key: 'labelRequired' }
  | { key: 'roleNameRequired' }
  | { key: 'fieldNotPlaced'; label: string }
  | { key: 'badDefault'; label: string };

export function editorIssue(roles: TemplateRole[], fields: EditField[]): EditorIssue | null {
  if (roles.some((r) => !r.name.trim())) return { key: 'roleNameRequired' };
  for (const f of fields) {
    if (!f.label.trim()) return { key: 'labelRequired' };
    if (!f.page || !f.rect) return { key: 'fieldNotPlaced', label: f.label };
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
