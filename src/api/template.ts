// Typed client of contract/calls/template.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/template.ts';
import * as P from '#contract/paths/template.ts';
import { FIELD_KINDS, NOT_TYPED_KINDS } from '#contract/rules/fields.ts';
import { call, type Req } from './http.ts';
import { downloadAt } from './transfer.ts';

export type {
  FieldType,
  RoleAssignment,
  Template,
  TemplateDraft,
  TemplateField,
  TemplatePosition,
  TemplateRole,
  TemplateSummary,
} from '#contract/calls/template.ts';
export type SaveTemplateRequest = Req<typeof calls.saveTemplate>;
export type PrepareRequest = Req<typeof calls.prepareTemplateLaunch>;

/** The contract's constants (template.ts holds zod, so repeated here and typed against it). */
export const INITIATOR_FILLER: typeof calls.INITIATOR_FILLER = 'initiator';
export const TEMPLATE_TEXT_MAX: typeof calls.TEMPLATE_TEXT_MAX = 200;
/** Every kind a template field may have (contract/rules/fields.ts FIELD_KINDS). */
export const FIELD_TYPES = FIELD_KINDS satisfies readonly calls.FieldType[];
/** Kinds the initiator may fill at launch (signDate and attachment exist only in the signing room). */
export const LAUNCH_FIELD_TYPES: readonly calls.FieldType[] = FIELD_KINDS.filter(
  (k) => !NOT_TYPED_KINDS.includes(k),
);
export const NUMBER_PATTERN = /^-?\d{1,15}(\.\d{1,6})?$/;

/** Whether `value` is a real calendar date written YYYY-MM-DD (the server's rule). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export const templatePdfUrl = (templateId: string) => downloadAt(P.downloadTemplatePdf, [templateId]);

export const saveTemplate = call<typeof calls.saveTemplate>(P.saveTemplate);

export const getTemplate = call<typeof calls.getTemplate>(P.getTemplate);

export const listTemplates = call<typeof calls.listTemplates>(P.listTemplates);

export const deleteTemplate = call<typeof calls.deleteTemplate>(P.deleteTemplate);

export const prepareTemplateLaunch = call<typeof calls.prepareTemplateLaunch>(P.prepareTemplateLaunch);

export const getTemplateDraft = call<typeof calls.getTemplateDraft>(P.getTemplateDraft);

export const launchTemplateFlow = call<typeof calls.launchTemplateFlow>(P.launchTemplateFlow);
