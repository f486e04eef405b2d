// Comments on a flow (issue 29: negotiate before signing). While a flow is open its launcher (the launching
// account's users who may read it) and its parties (by session, or a signing room by its roomToken) comment:
// a root comment is pinned to a place on a page of a document (PDF points, origin bottom-left), to a whole
// document, or to the flow; replies make a thread; a thread is resolved and reopened. Nothing is deleted.
// Each comment names the flow's revision it was made on (flows.revision), so comments of an earlier
// revision stay readable, labelled with theirs. Writing is refused (1100) once the flow ended.
import { z } from 'zod';
import { bi } from '../bilingual.ts';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/comments.ts';

import { COMMENT_LIMITS } from '../rules/comments.ts';

export { COMMENT_LIMITS };

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));

/** Who wrote: the launcher's side, or party N (1-based, in the flow's order of steps and parties). */
export const zCommentAuthor = z.object({
  role: z.enum(['launcher', 'party']),
  /** 1-based number of the party (role 'party'); null for the launcher. */
  partyNumber: z.number().int().nullable(),
  name: z.string(),
});

/** Where a root comment is pinned: a point of a page, a whole document (page null), or the flow (null). */
export const zCommentAnchor = z.object({
  documentId: zId,
  /** 1-based page; null: the whole document. */
  page: z.number().int().min(1).max(10_000).nullable(),
  /** The point in PDF points, origin bottom-left (with a page only). */
  x: z.number().min(0).max(20_000).nullable(),
  y: z.number().min(0).max(20_000).nullable(),
});
export type CommentAnchor = z.infer<typeof zCommentAnchor>;

export const zComment = z.object({
  commentId: z.string(),
  author: zCommentAuthor,
  body: z.string(),
  /** The flow's revision when it was written. */
  revision: z.number().int(),
  createdAt: z.string(),
});
export type FlowComment = z.infer<typeof zComment>;

/** A root comment with its replies (oldest first) and whether the thread is resolved. */
export const zCommentThread = zComment.extend({
  threadId: z.string(),
  anchor: zCommentAnchor.nullable(),
  replies: z.array(zComment),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
});
export type CommentThread = z.infer<typeof zCommentThread>;

const zReader = zBase.extend({
  flowId: zId,
  /** A signing room acts for its one party; without it, the session's account reads. */
  roomToken: z.string().min(16).max(100).optional(),
});

export const listFlowComments = defineCall({
  call: P.listFlowComments,
  auth: false,
  summary:
    "A flow's comment threads, oldest first, every revision (each labelled), for whoever may read the flow: the " +
    "launching account, a party (session), or a party's signing room (roomToken). Others: 1101. `canWrite`: the " +
    'flow is open, so the caller may comment, reply, resolve and reopen.',
  request: zReader,
  response: z.object({
    revision: z.number().int(),
    canWrite: z.boolean(),
    threads: z.array(zCommentThread),
  }),
});

export const addFlowComment = defineCall({
  call: P.addFlowComment,
  auth: false,
  summary:
    'A new comment: a root (with an anchor, or none for the whole flow) or a reply to a thread (`threadId`; ' +
    'a reply has no anchor of its own). 1 to 2000 characters, at most 60 per author and flow an hour (1005). ' +
    'Refused (1100) once the flow is completed, declined, cancelled or expired. The others in the flow are ' +
    'told (/message, SMS, e-mail) and the webhook `comment.created` fires. Answers the thread.',
  request: zReader.extend({
    body: z
      .string()
      .trim()
      .min(1, bi('write a comment', '请输入评论内容'))
      .max(COMMENT_LIMITS.body, bi('a comment has at most 2000 characters', '评论最多 2000 字')),
    threadId: zId.optional(),
    anchor: zCommentAnchor.optional(),
  }),
  response: zCommentThread,
});

export const setCommentThreadResolved = defineCall({
  call: P.setCommentThreadResolved,
  auth: false,
  summary:
    'Resolves (`resolved` true) or reopens a thread; anyone who may comment. Refused (1100) once the flow ended. ' +
    'An audit entry either way. Answers the thread.',
  request: zReader.extend({ threadId: zId, resolved: z.boolean() }),
  response: zCommentThread,
});

export const commentCalls = [listFlowComments, addFlowComment, setCommentThreadResolved] as const;
