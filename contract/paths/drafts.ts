// The paths of contract/calls/drafts.ts (zod-free: src/api/ imports them).
import { csign } from '../call-path.ts';

export const saveLaunchDraft = /* @__PURE__ */ csign('saveLaunchDraft');
export const listLaunchDrafts = /* @__PURE__ */ csign('listLaunchDrafts');
export const getLaunchDraft = /* @__PURE__ */ csign('getLaunchDraft');
export const deleteLaunchDraft = /* @__PURE__ */ csign('deleteLaunchDraft');
