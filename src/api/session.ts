// Typed client of contract/calls/session.ts. Only types come from the contract (no zod in the bundle);
// the prefixes are typed as the contract's constants, so a typo here is a type error.
import type * as calls from '#contract/calls/session.ts';
import type { CallRequest, CallResponse, CSIGN_PREFIX, JINSHANG_PREFIX } from '#contract/envelope.ts';
import { post } from './http.ts';

const CSIGN: typeof CSIGN_PREFIX = '/v1/account/api/csign';
const JINSHANG: typeof JINSHANG_PREFIX = '/v1/jinshang/login/api/csign';

/** http.ts adds `userType` from the session when the caller leaves it out. */
type Req<D> = Omit<CallRequest<D>, 'userType'> & { userType?: number };
type Res<D> = CallResponse<D>;

export type { LoginInfo } from '#contract/calls/session.ts';

export const sendSmsCode = (body: Req<typeof calls.sendSmsCode>) =>
  post<Res<typeof calls.sendSmsCode>>(`${CSIGN}/sendSmsCode`, body);

export const userRegister = (body: Req<typeof calls.userRegister>) =>
  post<Res<typeof calls.userRegister>>(`${CSIGN}/userRegister`, body);

export const userLogin = (body: Req<typeof calls.userLogin>) =>
  post<Res<typeof calls.userLogin>>(`${CSIGN}/userLogin`, body);

export const userOperatorLogin = (body: Req<typeof calls.userOperatorLogin>) =>
  post<Res<typeof calls.userOperatorLogin>>(`${CSIGN}/userOperatorLogin`, body);

export const logout = (body: Req<typeof calls.logout> = {}) =>
  post<Res<typeof calls.logout>>(`${CSIGN}/logout`, body);

export const resetPassword = (body: Req<typeof calls.resetPassword>) =>
  post<Res<typeof calls.resetPassword>>(`${CSIGN}/resetPassword`, body);

/** The route guard's login-state check (SPEC §2). */
export const getEsignLoginInfo = (body: Req<typeof calls.getEsignLoginInfo> = {}) =>
  post<Res<typeof calls.getEsignLoginInfo>>(`${JINSHANG}/getEsignLoginInfo`, body);

export const getUserQualification = (body: Req<typeof calls.getUserQualification> = {}) =>
  post<Res<typeof calls.getUserQualification>>(`${CSIGN}/getUserQualification`, body);

export const updateLoginUserInfoCache = (body: Req<typeof calls.updateLoginUserInfoCache> = {}) =>
  post<Res<typeof calls.updateLoginUserInfoCache>>(`${CSIGN}/updateLoginUserInfoCache`, body);

export const isHyCenterLogin = (body: Req<typeof calls.isHyCenterLogin> = {}) =>
  post<Res<typeof calls.isHyCenterLogin>>(`${CSIGN}/isHyCenterLogin`, body);

export const getSaleProductTypeList = (body: Req<typeof calls.getSaleProductTypeList> = {}) =>
  post<Res<typeof calls.getSaleProductTypeList>>(`${CSIGN}/getSaleProductTypeList`, body);
