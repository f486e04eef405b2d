// Typed client of contract/calls/platform.ts and monitor.ts (types only from the contract).
import type * as monitor from '#contract/calls/monitor.ts';
import type * as platform from '#contract/calls/platform.ts';
import type { CallRequest, CallResponse, CSIGN_PREFIX } from '#contract/envelope.ts';
import { post } from './http.ts';

const CSIGN: typeof CSIGN_PREFIX = '/v1/account/api/csign';

type Req<D> = Omit<CallRequest<D>, 'userType'> & { userType?: number };
type Res<D> = CallResponse<D>;

export type { ServiceCheck } from '#contract/calls/monitor.ts';
export type PlatformConfig = Res<typeof platform.getPlatformConfig>;
export type ServiceStatus = Res<typeof monitor.getServiceStatus>;

export const getPlatformConfig = (body: Req<typeof platform.getPlatformConfig>) =>
  post<PlatformConfig>(`${CSIGN}/getPlatformConfig`, body);

export const getServiceStatus = (body: Req<typeof monitor.getServiceStatus> = {}) =>
  post<ServiceStatus>(`${CSIGN}/getServiceStatus`, body);
