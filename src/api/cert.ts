// Typed client of contract/calls/cert.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/cert.ts';
import type { CallRequest, CallResponse, CSIGN_PREFIX } from '#contract/envelope.ts';
import { post } from './http.ts';

const CSIGN: typeof CSIGN_PREFIX = '/v1/account/api/csign';

type Req<D> = Omit<CallRequest<D>, 'userType'> & { userType?: number };
type Res<D> = CallResponse<D>;

export type {
  CertChangeInfo,
  CertChangeReason,
  CertRecord,
  RevocationReasonName,
} from '#contract/calls/cert.ts';
export type RenewResult = Res<typeof calls.renewCaCert>;
export type ReissueResult = Res<typeof calls.reissueCaCert>;

export const getCertChangeInfo = (body: Req<typeof calls.getCertChangeInfo> = {}) =>
  post<Res<typeof calls.getCertChangeInfo>>(`${CSIGN}/getCertChangeInfo`, body);

export const sendCertChangeSmsCode = (body: Req<typeof calls.sendCertChangeSmsCode> = {}) =>
  post<Res<typeof calls.sendCertChangeSmsCode>>(`${CSIGN}/sendCertChangeSmsCode`, body);

export const renewCaCert = (body: Req<typeof calls.renewCaCert>) =>
  post<Res<typeof calls.renewCaCert>>(`${CSIGN}/renewCaCert`, body);

export const reissueCaCert = (body: Req<typeof calls.reissueCaCert>) =>
  post<Res<typeof calls.reissueCaCert>>(`${CSIGN}/reissueCaCert`, body);
