import { z } from 'zod';
import { zCcList } from './cc-input.ts';
import { defineCall, zBase, zPage, zPageRequest } from '../envelope.ts';
import * as P from '../paths/template.ts';
import { zDocumentInfo, zPageSize } from './document.ts';
import { FLOW_LIMITS, zApplies, zContractAmount, zFlowStatus, zIntent } from './flow.ts';
import { zPhone } from './session.ts';
import { zRoleKey, zRoleKind } from './sign-config.ts';
import { bi } from '../bilingual.ts';
import { zTermInput } from './term-input.ts';
import { FIELD_KINDS, type FieldKind, NOT_TYPED_KINDS } from '../rules/fields.ts';
import { zFieldKind, zFieldOptions } from './fields.ts';

// Templates (/manage/fileTemplate): a PDF with roles, fields and signing positions, made once and launched
// many times (/manage/home/templateCreate -> templateDetail -> templateSign).
// - Roles: who signs (甲方, 乙方 ...), person or company, what each applies, and in which step (0-based; the
//   roles of one step sign in parallel). A template may take its roles from a signing configuration
//   (sign-config.ts): they are COPIED when the template is saved, so a later change of the configuration
//   never alters a template, nor a contract made from it.
// - Fields: text, number, date (YYYY-MM-DD) or checkbox, each with a label, whether it is required, a default
//   value, who provides it (the initiator, or a role: the initiator enters what that party gave) and where it
//   is written (page + rect). At launch the values are drawn INTO the PDF (flattened; CJK text with an
//   embedded subset font, a checkbox as a tick) before the verification footer and before any signature.
// - Positions: per role ONE box where its seal or signature goes.
// Rectangles are [x1, y1, x2, y2] in PDF points, origin at the bottom-left of the page's MediaBox; pages 1-based.
// A template belongs to the account that made it: a person, or a company (its administrators and operators);
// another account gets 1101 NotFound as for an unknown id.

/** GET `${TEMPLATE_DOWNLOAD_PATH}/<templateId>`: the template's PDF as uploaded (for the editor and preview). */
export const TEMPLATE_DOWNLOAD_PATH = P.downloadTemplatePdf.path;
/** Largest number of fields of one template. */
export const TEMPLATE_FIELD_LIMIT = 100;
/** Largest length of a text field value. */
export const TEMPLATE_TEXT_MAX = 200;

/**
 * Field types: every kind of contract/rules/fields.ts. A field the initiator fills (fillAt 'launch') is one of
 * LAUNCH_FIELD_TYPES; a field a role's signer fills in the room (fillAt 'room', issue 28) may be any kind.
 */
export const FieldType = {
  Text: 'text',
  Multiline: 'multiline',
  Number: 'number',
  Date: 'date',
  SignDate: 'signDate',
  Checkbox: 'checkbox',
  Radio: 'radio',
  Select: 'select',
  IdNumber: 'idNumber',
  Phone: 'phone',
  Attachment: 'attachment',
} as const satisfies Record<string, FieldKind>;
export type FieldType = FieldKind;
export const zFieldType = zFieldKind;
/** Kinds the initiator may fill at launch (signDate and attachment exist only in the room). */
export const LAUNCH_FIELD_TYPES: readonly FieldKind[] = FIELD_KINDS.filter(
  (k) => !NOT_TYPED_KINDS.includes(k),
);

/** `filler` of a field provided by the initiator rather than a role. */
export const INITIATOR_FILLER = 'initiator';

/** A number as typed: optional minus, digits, optional decimals (no exponent, no thousands separators). */
export const NUMBER_PATTERN = /^-?\d{1,15}(\.\d{1,6})?$/;
/** A date as YYYY-MM-DD. */
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `value` is a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  if (!DATE_PATTERN.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const zRect = z
  .tuple([z.number(), z.number(), z.number(), z.number()])
  .describe('[x1, y1, x2, y2] PDF points, origin bottom-left');

export const zTemplateRole = z.object({
  key: zRoleKey,
  name: z.string().trim().min(1, bi('enter the role name', '请输入角色名称')).max(32),
  kind: zRoleKind,
  applies: zApplies,
  /** 0-based step; roles of one step sign in parallel, steps in order. */
  stepIndex: z
    .number()
    .int()
    .min(0)
    .max(FLOW_LIMITS.steps - 1),
});
export type TemplateRole = z.infer<typeof zTemplateRole>;

export const zTemplateField = z.object({
  key: zRoleKey.describe('unique within the template'),
  label: z.string().trim().min(1, bi('enter the field label', '请输入字段名称')).max(40),
  type: zFieldType,
  isRequired: z.boolean().default(false),
  /** Default value as text: a number, a YYYY-MM-DD date, 'true'/'false' for a checkbox; null for none. */
  defaultValue: z.string().max(TEMPLATE_TEXT_MAX).nullable().default(null),
  /** Who provides it: INITIATOR_FILLER or a role key. */
  filler: z.string().max(24).default(INITIATOR_FILLER),
  /**
   * 'launch' (default): the value is given at launch (by the initiator, for the filler) and drawn into the PDF
   * before anyone signs. 'room' (issue 28): the filler role's signer fills it in the signing room and it is
   * written with their signature (filler must then be a role; defaultValue is not used).
   */
  fillAt: z.enum(['launch', 'room']).default('launch'),
  /** radio and select: the options. */
  options: zFieldOptions.optional(),
  page: z.number().int().min(1),
  rect: zRect,
  /** Font size in points; default: fitted to the box height. */
  fontSize: z.number().min(5).max(36).optional(),
});
export type TemplateField = z.infer<typeof zTemplateField>;

export const zTemplatePosition = z.object({
  roleKey: zRoleKey,
  page: z.number().int().min(1),
  rect: zRect,
});
export type TemplatePosition = z.infer<typeof zTemplatePosition>;

export const zTemplate = z.object({
  templateId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** File name of the PDF the template was made from. */
  documentName: z.string(),
  pages: z.number().int(),
  pageSizes: z.array(zPageSize),
  roles: z.array(zTemplateRole),
  fields: z.array(zTemplateField),
  positions: z.array(zTemplatePosition),
  /** The configuration its roles were copied from (null when the roles were set by hand or it was deleted). */
  signConfigId: z.string().nullable(),
  signConfigName: z.string().nullable(),
  /** GET URL of the template PDF. */
  downloadUrl: z.string(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Template = z.infer<typeof zTemplate>;

export const zTemplateSummary = zTemplate
  .pick({
    templateId: true,
    name: true,
    description: true,
    documentName: true,
    pages: true,
    signConfigName: true,
    createdByName: true,
    createdAt: true,
    updatedAt: true,
  })
  .extend({ roleNames: z.array(z.string()), fieldCount: z.number().int() });
export type TemplateSummary = z.infer<typeof zTemplateSummary>;

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));

export const saveTemplate = defineCall({
  call: P.saveTemplate,
  auth: true,
  summary:
    'Creates a template from an uploaded, not yet launched PDF of the caller account (documentId; the upload is ' +
    'consumed) or replaces the content of one (templateId). With signConfigId the roles are copied from that ' +
    'configuration (the roles sent are ignored). Refusals (1100, the message names the item): a field or position ' +
    'off its page, duplicate keys, a field filled by an unknown role, a default value of the wrong type, a ' +
    'position of an unknown role, two positions for one role, a company role applying nothing, empty steps.',
  request: zBase.extend({
    templateId: zId.optional(),
    documentId: zId.optional(),
    name: z.string().trim().min(1, bi('enter a template name', '请输入模板名称')).max(60),
    description: z.string().trim().max(200).optional(),
    signConfigId: zId.nullable().optional(),
    roles: z.array(zTemplateRole).max(FLOW_LIMITS.parties).default([]),
    fields: z.array(zTemplateField).max(TEMPLATE_FIELD_LIMIT).default([]),
    positions: z.array(zTemplatePosition).max(FLOW_LIMITS.parties).default([]),
  }),
  response: zTemplate,
});

export const getTemplate = defineCall({
  call: P.getTemplate,
  auth: true,
  summary: 'One template of the caller account (fileTemplate/preview, editFileTemplate, templateDetail).',
  request: zBase.extend({ templateId: zId }),
  response: zTemplate,
});

export const listTemplates = defineCall({
  call: P.listTemplates,
  auth: true,
  summary:
    'Templates of the caller account, newest change first; `keyword` matches the name or the file name; ' +
    'pagination pageNum/pageSize (default 10).',
  request: zBase.extend(zPageRequest.shape).extend({ keyword: z.string().trim().max(50).optional() }),
  response: zPage(zTemplateSummary),
});

export const deleteTemplate = defineCall({
  call: P.deleteTemplate,
  auth: true,
  summary: 'Deletes a template of the caller account. Contracts already launched from it are not affected.',
  request: zBase.extend({ templateId: zId }),
  response: z.null(),
});

/** Who fills a role in one contract: a person, or a company (the own one or another) with its signer. */
export const zRoleAssignment = z.discriminatedUnion('kind', [
  z.object({
    roleKey: zRoleKey,
    kind: z.literal('person'),
    name: z.string().trim().min(1, bi('enter the signer name', '请输入签署人姓名')).max(32),
    phone: zPhone,
    /** The intent check asked right before this party's signature (launchFlow's party.intent). */
    intent: zIntent.default('sms'),
  }),
  z.object({
    roleKey: zRoleKey,
    kind: z.literal('company'),
    /** A verified company: by id (the own company: the session company) or by its exact registered name. */
    companyId: zId.optional(),
    companyName: z.string().trim().min(2).max(64).optional(),
    /** Administrator or operator of that company who receives the link and applies the seal. */
    operatorPhone: zPhone,
    operatorName: z.string().trim().max(32).optional(),
    intent: zIntent.default('sms'),
  }),
]);
export type RoleAssignment = z.infer<typeof zRoleAssignment>;

/** A field value: text for text/number/date fields, a boolean for a checkbox. */
export const zFieldValue = z.union([z.string().max(TEMPLATE_TEXT_MAX), z.boolean()]);

export const zTemplateDraft = z.object({
  draftId: z.string(),
  templateId: z.string(),
  templateName: z.string(),
  title: z.string(),
  values: z.record(z.string(), zFieldValue),
  assignments: z.array(zRoleAssignment),
  /** The filled PDF (not launched yet): review it with its downloadUrl. */
  document: zDocumentInfo,
  /** The template's roles and positions, for the review. */
  roles: z.array(zTemplateRole),
  positions: z.array(zTemplatePosition),
  /** Set once launched. */
  flowId: z.string().nullable(),
  flowStatus: zFlowStatus.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TemplateDraft = z.infer<typeof zTemplateDraft>;

export const prepareTemplateLaunch = defineCall({
  call: P.prepareTemplateLaunch,
  auth: true,
  summary:
    'home/templateDetail: fills a template for one contract. Checks every value (required fields present; number ' +
    'fields a number; date fields a real YYYY-MM-DD date; text at most 200 characters; no unknown field) and the ' +
    'party of each role (person role -> a person, company role -> a company), writes the values into a copy of the ' +
    'PDF (a new document of the caller account, not launched) and keeps a draft (home/tempTemplateDetail). With ' +
    'draftId, replaces that draft’s values and parties. Refusals 1100 name the field or role.',
  request: zBase.extend({
    templateId: zId,
    draftId: zId.optional(),
    title: z.string().trim().min(1, bi('enter a title', '请输入标题')).max(100),
    values: z.record(z.string().max(24), zFieldValue).default({}),
    assignments: z.array(zRoleAssignment).max(FLOW_LIMITS.parties),
  }),
  response: zTemplateDraft,
});

export const getTemplateDraft = defineCall({
  call: P.getTemplateDraft,
  auth: true,
  summary: 'A draft of the caller account (home/tempTemplateDetail, home/templateSign); others 1101.',
  request: zBase.extend({ draftId: zId }),
  response: zTemplateDraft,
});

export const launchTemplateFlow = defineCall({
  call: P.launchTemplateFlow,
  auth: true,
  summary:
    'home/templateSign: launches the drafted contract as launchFlow does (verification footer, quota, links to the ' +
    'first step), with the template’s steps, the assigned parties and the template’s positions. A draft is ' +
    'launched once (1100 after).',
  request: zBase.extend({
    draftId: zId,
    deadline: z.iso.datetime({ offset: true }).optional(),
    message: z.string().trim().max(500).optional(),
    amount: zContractAmount.optional(),
    /** Copy recipients (抄送, issue 29), as launchFlow takes them. */
    cc: zCcList.optional(),
    /** The contract's own term and the flow renewed (issue 29), as launchFlow's. */
    term: zTermInput.optional(),
    renewsFlowId: zId.optional(),
  }),
  response: z.object({
    flowId: z.string(),
    status: zFlowStatus,
    verificationCodes: z.array(z.string()),
    /** Held for the company's launch approval (issue 27): sent once approved. */
    awaitingApproval: z.boolean().optional(),
  }),
});

export const templateCalls = [
  saveTemplate,
  getTemplate,
  listTemplates,
  deleteTemplate,
  prepareTemplateLaunch,
  getTemplateDraft,
  launchTemplateFlow,
] as const;
