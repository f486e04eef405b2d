// Typed client of contract/calls/person.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/person.ts';
import * as P from '#contract/paths/person.ts';
import { call, type Res } from './http.ts';

export type { OpenSignStatus, PersonCert } from '#contract/calls/person.ts';
export type PersonalDetails = Res<typeof calls.getPersonalDetails>;
export type UserAgreement = Res<typeof calls.getUserAgreement>;
export type FaceAuthResult = Res<typeof calls.getFaceAuthResult>;

export const authIdNamePhone = call<typeof calls.authIdNamePhone>(P.authIdNamePhone);

export const checkCurrentLoginUserOpenSign = call<typeof calls.checkCurrentLoginUserOpenSign>(
  P.checkCurrentLoginUserOpenSign,
);

export const getUserAgreement = call<typeof calls.getUserAgreement>(P.getUserAgreement);

export const acceptUserAgreement = call<typeof calls.acceptUserAgreement>(P.acceptUserAgreement);

export const createPersonCaCert = call<typeof calls.createPersonCaCert>(P.createPersonCaCert);

export const getPersonCaCert = call<typeof calls.getPersonCaCert>(P.getPersonCaCert);

export const getPersonalDetails = call<typeof calls.getPersonalDetails>(P.getPersonalDetails);

export const recoverAccountVerify = call<typeof calls.recoverAccountVerify>(P.recoverAccountVerify);

export const recoverAccountFinish = call<typeof calls.recoverAccountFinish>(P.recoverAccountFinish);

export const startFaceAuth = call<typeof calls.startFaceAuth>(P.startFaceAuth);

export const getFaceAuthResult = call<typeof calls.getFaceAuthResult>(P.getFaceAuthResult);
