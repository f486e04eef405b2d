// Typed client of contract/calls/cert.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/cert.ts';
import * as P from '#contract/paths/cert.ts';
import { call } from './http.ts';

export type {
  CertChangeInfo,
  CertChangeReason,
  CertRecord,
} from '#contract/calls/cert.ts';

export const getCertChangeInfo = call<typeof calls.getCertChangeInfo>(P.getCertChangeInfo);

export const sendCertChangeSmsCode = call<typeof calls.sendCertChangeSmsCode>(P.sendCertChangeSmsCode);

export const renewCaCert = call<typeof calls.renewCaCert>(P.renewCaCert);

export const reissueCaCert = call<typeof calls.reissueCaCert>(P.reissueCaCert);
