// Typed client of contract/calls/fields.ts (types only from the contract: no zod in the bundle). The signing
// room imports this, so nothing here may pull zod or antd.
import type * as calls from '#contract/calls/fields.ts';
import * as P from '#contract/paths/fields.ts';
import { call } from './http.ts';
import { downloadAt, downloadUrl, upload } from './transfer.ts';

export type { FieldDefinition, FlowField } from '#contract/calls/fields.ts';
export {
  ATTACHMENT_TYPES,
  CHOICE_KINDS,
  checkFieldValue,
  FIELD_KINDS,
  FIELD_LIMITS,
  type FieldKind,
  type FieldValue,
  isFieldComplete,
  NOT_TYPED_KINDS,
} from '#contract/rules/fields.ts';

export const saveRoomFields = call<typeof calls.saveRoomFields>(P.saveRoomFields);

export const removeRoomAttachment = call<typeof calls.removeRoomAttachment>(P.removeRoomAttachment);

/** The attachment of one attachment field (text fields first, then the part `file`). */
export const uploadRoomAttachment = (
  roomToken: string,
  fieldId: string,
  file: File,
  onProgress?: (fraction: number) => void,
) => {
  const form = new FormData();
  form.append('roomToken', roomToken);
  form.append('fieldId', fieldId);
  form.append('file', file, file.name);
  return upload<typeof calls.uploadRoomAttachment>(P.uploadRoomAttachment, form, onProgress);
};

/** GET URL of a field's attachment: with the session (launcher, parties) or a room token. */
export const fieldAttachmentUrl = (fieldId: string, roomToken?: string) =>
  downloadAt(P.downloadFieldAttachment, [fieldId], { roomToken });

/** The link of an attachment the server listed (its `downloadUrl`), with the room token inside a room. */
export const attachmentHref = (downloadUrlPath: string, roomToken?: string) =>
  downloadUrl(downloadUrlPath, { roomToken });
