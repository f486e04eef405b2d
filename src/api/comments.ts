// Typed client of contract/calls/comments.ts (types only from the contract: no zod in the bundle). The signing
// room imports this, so nothing here may pull zod or antd.
import type * as calls from '#contract/calls/comments.ts';
import * as P from '#contract/paths/comments.ts';
import { call } from './http.ts';

export type { CommentAnchor, CommentThread, FlowComment } from '#contract/calls/comments.ts';

export const listFlowComments = call<typeof calls.listFlowComments>(P.listFlowComments);
export const addFlowComment = call<typeof calls.addFlowComment>(P.addFlowComment);
export const setCommentThreadResolved = call<typeof calls.setCommentThreadResolved>(
  P.setCommentThreadResolved,
);
