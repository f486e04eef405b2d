// Typed client of contract/calls/template.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/template.ts';
import type { CallRequest, CallResponse, CSIGN_PREFIX } from '#contract/envelope.ts';
import { downloadUrl } from './document.ts';
import { post } from './http.ts';

const CSIGN: typeof CSIGN_PREFIX = '/v1/account/api/csign';
const TEMPLATE_DOWNLOAD: typeof calls.TEMPLATE_DOWNLOAD_PATH = `${CSIGN}/downloadTemplatePdf`;

type Req<D> = Omit<CallRequest<D>, 'userType'> & { userType?: number };
type Res<D> = CallResponse<D>;

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
export const FIELD_TYPES = [
  'text',
  'number',
  'date',
  'checkbox',
] as const satisfies readonly calls.FieldType[];
export const NUMBER_PATTERN = /^-?\d{1,15}(\.\d{1,6})?$/;

/** Whether `value` is a real calendar date written YYYY-MM-DD (the server's rule). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export const templatePdfUrl = (templateId: string) =>
  downloadUrl(`${TEMPLATE_DOWNLOAD}/${encodeURIComponent(templateId)}`);

export const saveTemplate = (body: Req<typeof calls.saveTemplate>) =>
  post<Res<typeof calls.saveTemplate>>(`${CSIGN}/saveTemplate`, body);

export const getTemplate = (body: Req<typeof calls.getTemplate>) =>
  post<Res<typeof calls.getTemplate>>(`${CSIGN}/getTemplate`, body);

export const listTemplates = (body: Req<typeof calls.listTemplates>) =>
  post<Res<typeof calls.listTemplates>>(`${CSIGN}/listTemplates`, body);

export const deleteTemplate = (body: Req<typeof calls.deleteTemplate>) =>
  post<Res<typeof calls.deleteTemplate>>(`${CSIGN}/deleteTemplate`, body);

export const prepareTemplateLaunch = (body: Req<typeof calls.prepareTemplateLaunch>) =>
  post<Res<typeof calls.prepareTemplateLaunch>>(`${CSIGN}/prepareTemplateLaunch`, body);

export const getTemplateDraft = (body: Req<typeof calls.getTemplateDraft>) =>
  post<Res<typeof calls.getTemplateDraft>>(`${CSIGN}/getTemplateDraft`, body);

export const launchTemplateFlow = (body: Req<typeof calls.launchTemplateFlow>) =>
  post<Res<typeof calls.launchTemplateFlow>>(`${CSIGN}/launchTemplateFlow`, body);
