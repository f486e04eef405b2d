// The paths of contract/calls/fields.ts (zod-free: src/api/ imports them).
import { csign } from '../call-path.ts';

export const saveRoomFields = /* @__PURE__ */ csign('saveRoomFields');
export const uploadRoomAttachment = /* @__PURE__ */ csign('uploadRoomAttachment', 'upload');
export const removeRoomAttachment = /* @__PURE__ */ csign('removeRoomAttachment');
// GET `${path}/<fieldId>?roomToken=...` (a party of the flow) or with the session (launcher, any party).
export const downloadFieldAttachment = /* @__PURE__ */ csign('downloadFieldAttachment', 'download');
