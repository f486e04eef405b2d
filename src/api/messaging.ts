// Typed client of contract/calls/messaging.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/messaging.ts';
import * as P from '#contract/paths/messaging.ts';
import { call, type Res } from './http.ts';

export type NoticeEmailSettings = Res<typeof calls.getNoticeEmail>;
export type MessageFailures = Res<typeof calls.adminGetMessageFailures>;
export type MessageFailure = MessageFailures['failures'][number];

export const getNoticeEmail = call<typeof calls.getNoticeEmail>(P.getNoticeEmail);
export const setNoticeEmail = call<typeof calls.setNoticeEmail>(P.setNoticeEmail);
export const adminGetMessageFailures = call<typeof calls.adminGetMessageFailures>(P.adminGetMessageFailures);
