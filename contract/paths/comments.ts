// The paths of contract/calls/comments.ts (zod-free: src/api/comments.ts imports them).
import { csign } from '../call-path.ts';

export const listFlowComments = /* @__PURE__ */ csign('listFlowComments');
export const addFlowComment = /* @__PURE__ */ csign('addFlowComment');
export const setCommentThreadResolved = /* @__PURE__ */ csign('setCommentThreadResolved');
