// Typed client of contract/calls/person.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/person.ts';
import type { CallRequest, CallResponse, CSIGN_PREFIX } from '#contract/envelope.ts';
import { post } from './http.ts';

const CSIGN: typeof CSIGN_PREFIX = '/v1/account/api/csign';

type Req<D> = Omit<CallRequest<D>, 'userType'> & { userType?: number };
type Res<D> = CallResponse<D>;

export type { OpenSignStatus, PersonCert } from '#contract/calls/person.ts';
export type PersonalDetails = Res<typeof calls.getPersonalDetails>;
export type UserAgreement = Res<typeof calls.getUserAgreement>;
export type FaceAuthResult = Res<typeof calls.getFaceAuthResult>;

export const authIdNamePhone = (body: Req<typeof calls.authIdNamePhone>) =>
  post<Res<typeof calls.authIdNamePhone>>(`${CSIGN}/authIdNamePhone`, body);

export const checkCurrentLoginUserOpenSign = (body: Req<typeof calls.checkCurrentLoginUserOpenSign> = {}) =>
  post<Res<typeof calls.checkCurrentLoginUserOpenSign>>(`${CSIGN}/checkCurrentLoginUserOpenSign`, body);

export const getUserAgreement = (body: Req<typeof calls.getUserAgreement> = {}) =>
  post<Res<typeof calls.getUserAgreement>>(`${CSIGN}/getUserAgreement`, body);

export const acceptUserAgreement = (body: Req<typeof calls.acceptUserAgreement>) =>
  post<Res<typeof calls.acceptUserAgreement>>(`${CSIGN}/acceptUserAgreement`, body);

export const createPersonCaCert = (body: Req<typeof calls.createPersonCaCert> = {}) =>
  post<Res<typeof calls.createPersonCaCert>>(`${CSIGN}/createPersonCaCert`, body);

export const getPersonCaCert = (body: Req<typeof calls.getPersonCaCert> = {}) =>
  post<Res<typeof calls.getPersonCaCert>>(`${CSIGN}/getPersonCaCert`, body);

export const getPersonalDetails = (body: Req<typeof calls.getPersonalDetails> = {}) =>
  post<Res<typeof calls.getPersonalDetails>>(`${CSIGN}/getPersonalDetails`, body);

export const recoverAccountVerify = (body: Req<typeof calls.recoverAccountVerify>) =>
  post<Res<typeof calls.recoverAccountVerify>>(`${CSIGN}/recoverAccountVerify`, body);

export const recoverAccountFinish = (body: Req<typeof calls.recoverAccountFinish>) =>
  post<Res<typeof calls.recoverAccountFinish>>(`${CSIGN}/recoverAccountFinish`, body);

export const startFaceAuth = (body: Req<typeof calls.startFaceAuth>) =>
  post<Res<typeof calls.startFaceAuth>>(`${CSIGN}/startFaceAuth`, body);

export const getFaceAuthResult = (body: Req<typeof calls.getFaceAuthResult>) =>
  post<Res<typeof calls.getFaceAuthResult>>(`${CSIGN}/getFaceAuthResult`, body);
