// Fields the signer fills (issue 28). The launcher places them on an uploaded document (launchFlow: a party's
// `fields`, placed like its signature positions: rect, mm or keyword), or a template's author on the template
// (a template field with fillAt 'room', filled by a role). At launch each becomes an empty AcroForm field of
// the document (before any signature); in the room the signer fills theirs, guided one by one, and the values
// are written into the PDF as form filling in the same incremental update as that party's signature, so the
// signature covers them and every earlier signature stays valid (verifiers report the update as form filling).
// A field filled and signed is never changed afterwards. Kinds and the value check: contract/rules/fields.ts.
import { z } from 'zod';
import { bi } from '../bilingual.ts';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/fields.ts';
import { FIELD_KINDS, FIELD_LIMITS } from '../rules/fields.ts';

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));

export const zFieldKind = z.enum(FIELD_KINDS);

/** Options of a radio group or select (2 to 20, each 1 to 40 characters, no two alike). */
export const zFieldOptions = z
  .array(z.string().trim().min(1).max(FIELD_LIMITS.optionLength))
  .min(2, bi('give at least two options', '请至少填写两个选项'))
  .max(FIELD_LIMITS.options)
  .refine((o) => new Set(o).size === o.length, bi('two options are the same', '选项重复'));

/** What a field is, wherever it is placed. */
export const zFieldDefinition = z.object({
  /** Unique within the party (launchFlow) or the template; letters, digits, '_' and '-'. */
  key: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{1,24}$/,
      bi('a field key has 1 to 24 letters, digits, _ or -', '字段标识为 1 到 24 位字母、数字、_ 或 -'),
    ),
  label: z.string().trim().min(1, bi('enter the field label', '请输入字段名称')).max(40),
  kind: zFieldKind,
  isRequired: z.boolean().default(true),
  /** radio and select only. */
  options: zFieldOptions.optional(),
});
export type FieldDefinition = z.infer<typeof zFieldDefinition>;

/** A value as typed: text, or a boolean for a checkbox; null clears it. */
export const zRoomFieldValue = z.union([z.string().max(FIELD_LIMITS.multiline), z.boolean()]).nullable();

export const zFieldAttachment = z.object({
  name: z.string(),
  mediaType: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  /** GET URL (add roomToken in a room). */
  downloadUrl: z.string(),
});

/** A signer field of a flow with its value. */
export const zFlowField = z.object({
  fieldId: z.string(),
  partyId: z.string(),
  documentId: z.string(),
  key: z.string(),
  label: z.string(),
  kind: zFieldKind,
  isRequired: z.boolean(),
  options: z.array(z.string()).nullable(),
  /** 1-based page and the box in PDF points, origin bottom-left. */
  page: z.number().int(),
  rect: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  /** The value (a checkbox: boolean; signDate: the date signed; attachment: its file name); null: empty. */
  value: z.union([z.string(), z.boolean()]).nullable(),
  attachment: zFieldAttachment.nullable(),
  /** When the party signed it into the PDF (null: saved in the room only, or empty). */
  signedAt: z.string().nullable(),
});
export type FlowField = z.infer<typeof zFlowField>;

const zRoom = zBase.extend({ roomToken: z.string().min(16).max(100) });

export const saveRoomFields = defineCall({
  call: P.saveRoomFields,
  auth: false,
  summary:
    "Saves values the room's signer typed into the party's own fields (a draft: kept while the room is open, " +
    'written into the PDF only by signDocument). Each value is checked as the room checks it (contract/rules/' +
    'fields.ts); a refused value answers 1100 naming the field and nothing is saved. Only while the party may ' +
    "sign (1301, 1302, 1303, 1311 as signDocument). Another party's field: 1101.",
  request: zRoom.extend({
    values: z.record(z.string().uuid(), zRoomFieldValue),
  }),
  response: z.object({ fields: z.array(zFlowField) }),
});

export const uploadRoomAttachment = defineCall({
  call: P.uploadRoomAttachment,
  auth: false,
  summary:
    'multipart/form-data: fields roomToken, fieldId and file (PNG, JPEG or PDF, judged by its bytes, at most ' +
    "10 MB): the attachment of one of the party's attachment fields, replacing an earlier one. Refused (1100) " +
    'for another type, an empty or oversized file, a field that is not an attachment.',
  request: zRoom.extend({ fieldId: zId }),
  response: zFlowField,
});

export const removeRoomAttachment = defineCall({
  call: P.removeRoomAttachment,
  auth: false,
  summary: "Removes the attachment of one of the party's attachment fields before signing.",
  request: zRoom.extend({ fieldId: zId }),
  response: zFlowField,
});

/** GET `${FIELD_ATTACHMENT_PATH}/<fieldId>`: an attachment's bytes, for the flow's launcher and parties. */
export const FIELD_ATTACHMENT_PATH = P.downloadFieldAttachment.path;

export const fieldCalls = [saveRoomFields, uploadRoomAttachment, removeRoomAttachment] as const;
