// Typed client of contract/calls/partner.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/partner.ts';
import * as P from '#contract/paths/partner.ts';
import { call, post, type Req, type Res } from './http.ts';

/** Partner login: the token travels in the query as the spec has it (`loginEsign?jsToken=`). */
export const loginEsign = (jsToken: string, body: Req<typeof calls.loginEsign> = {}) =>
  post<Res<typeof calls.loginEsign>>(P.loginEsign.path, body, { params: { jsToken } });

export const getLoginInfoFromJinshang = call<typeof calls.getLoginInfoFromJinshang>(
  P.getLoginInfoFromJinshang,
);

export const loginAsHy = call<typeof calls.loginAsHy>(P.loginAsHy);
