// Typed client of contract/calls/partner.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/partner.ts';
import type { CallRequest, CallResponse, CSIGN_PREFIX, JINSHANG_PREFIX } from '#contract/envelope.ts';
import { post } from './http.ts';

const CSIGN: typeof CSIGN_PREFIX = '/v1/account/api/csign';
const JINSHANG: typeof JINSHANG_PREFIX = '/v1/jinshang/login/api/csign';

type Req<D> = Omit<CallRequest<D>, 'userType'> & { userType?: number };
type Res<D> = CallResponse<D>;

export type { PartnerIdentity } from '#contract/calls/partner.ts';

/** Partner login: the token travels in the query as the spec has it (`loginEsign?jsToken=`). */
export const loginEsign = (jsToken: string, body: Req<typeof calls.loginEsign> = {}) =>
  post<Res<typeof calls.loginEsign>>(`${JINSHANG}/loginEsign`, body, { params: { jsToken } });

export const getLoginInfoFromJinshang = (body: Req<typeof calls.getLoginInfoFromJinshang> = {}) =>
  post<Res<typeof calls.getLoginInfoFromJinshang>>(`${JINSHANG}/getLoginInfoFromJinshang`, body);

export const loginAsHy = (body: Req<typeof calls.loginAsHy> = {}) =>
  post<Res<typeof calls.loginAsHy>>(`${CSIGN}/loginAsHy`, body);
