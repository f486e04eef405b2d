// The paths of contract/calls/messaging.ts (zod-free: src/api/messaging.ts imports them).
import { csign } from '../call-path.ts';

export const getNoticeEmail = /* @__PURE__ */ csign('getNoticeEmail');
export const setNoticeEmail = /* @__PURE__ */ csign('setNoticeEmail');
export const adminGetMessageFailures = /* @__PURE__ */ csign('adminGetMessageFailures');
