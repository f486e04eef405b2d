// Typed client of contract/calls/messaging.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/messaging.ts';
import type { CallRequest, CallResponse, CSIGN_PREFIX } from '#contract/envelope.ts';
import { post } from './http.ts';

const CSIGN: typeof CSIGN_PREFIX = '/v1/account/api/csign';

type Req<D> = Omit<CallRequest<D>, 'userType'> & { userType?: number };
type Res<D> = CallResponse<D>;

export type NoticeEmailSettings = Res<typeof calls.getNoticeEmail>;
export type MessageFailures = Res<typeof calls.adminGetMessageFailures>;
export type MessageFailure = MessageFailures['failures'][number];

const call =
  <D>(name: string) =>
  (body: Req<D>) =>
    post<Res<D>>(`${CSIGN}/${name}`, body);

export const getNoticeEmail = (body: Req<typeof calls.getNoticeEmail> = {}) =>
  call<typeof calls.getNoticeEmail>('getNoticeEmail')(body);
export const setNoticeEmail = call<typeof calls.setNoticeEmail>('setNoticeEmail');
export const adminGetMessageFailures = (body: Req<typeof calls.adminGetMessageFailures> = {}) =>
  call<typeof calls.adminGetMessageFailures>('adminGetMessageFailures')(body);
