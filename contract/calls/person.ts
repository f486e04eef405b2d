import { z } from 'zod';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/person.ts';
import { checkIdNumber, ID_NUMBER_PROBLEM_TEXT, PERSON_NAME_PATTERN } from '../rules/id-number.ts';
import { FACE_OPEN_FLAGS, FaceResult } from '../rules/person.ts';
import { zPhone, zSmsCode } from './session.ts';
import { bi } from '../bilingual.ts';

/**
 * A mainland resident ID number: 18 characters, a real birth date not in the future and the GB 11643
 * check digit (contract/rules/id-number.ts). Normalised to upper-case X. The server checks the birth date
 * again against its own clock.
 */
export const zIdNumber = z.string().transform((value, ctx) => {
  const result = checkIdNumber(value);
  if (!result.ok) {
    ctx.addIssue({ code: 'custom', message: ID_NUMBER_PROBLEM_TEXT[result.problem] });
    return z.NEVER;
  }
  return result.normalised;
});

/** A person's name as on the ID card: 2 to 30 letters (Chinese or Latin, with · . - and spaces). */
export const zPersonName = z
  .string()
  .trim()
  .regex(
    PERSON_NAME_PATTERN,
    bi('the name must have 2 to 30 letters (no digits or symbols)', '姓名须为 2–30 个文字（不含数字或符号）'),
  );

const zText = z.object({ zh: z.string(), en: z.string() });

/** The current certificate of a person, as getPersonCaCert shows it. */
export const zPersonCert = z.object({
  /** Certificate serial number, lower-case hex. */
  serial: z.string(),
  /** RFC 4514 subject (CN = name, serialNumber = keyed hash of the ID number, C = CN). */
  subject: z.string(),
  issuer: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  status: z.enum(['good', 'revoked']),
  /** The certificate, PEM, for download (no private key ever leaves the server). */
  pem: z.string(),
});
export type PersonCert = z.infer<typeof zPersonCert>;

/** Where a person stands in opening e-signature (and which identity provider checks them). */
export const zOpenSignStatus = z.object({
  /** Real-name done + current agreement accepted + certificate issued (for userType 1: the company's state). */
  isOpen: z.boolean(),
  userType: z.number().int(),
  isRealNameDone: z.boolean(),
  isAgreementAccepted: z.boolean(),
  hasCaCert: z.boolean(),
  /** The agreement version that must be accepted now. */
  agreementVersion: z.string(),
  /** The identity provider; the UI shows a notice while it is the development one. */
  identityProvider: z.object({ name: z.string(), isDevelopment: z.boolean() }),
  /** For userType 1 while the company part is not built: the answer is the person's (see summary). */
  isPersonAnswer: z.boolean(),
});
export type OpenSignStatus = z.infer<typeof zOpenSignStatus>;

export const authIdNamePhone = defineCall({
  call: P.authIdNamePhone,
  auth: true,
  summary:
    'Real-name check of the logged-in person: name, ID number (GB 11643), mobile number and an SMS code sent to that ' +
    'number for purpose realName. The identity provider confirms the three belong together; the ID number is kept ' +
    'only as a keyed hash and a masked form. One identity belongs to one account.',
  request: zBase.extend({ name: zPersonName, idNumber: zIdNumber, phone: zPhone, smsCode: zSmsCode }),
  response: zOpenSignStatus,
});

export const checkCurrentLoginUserOpenSign = defineCall({
  call: P.checkCurrentLoginUserOpenSign,
  auth: true,
  summary:
    'Whether the logged-in account has opened e-signature: real-name done, current certificate agreement accepted ' +
    'and a certificate issued. For userType 1 the company of the session answers when the company part provides it; ' +
    'otherwise the person answers (isPersonAnswer).',
  request: zBase,
  response: zOpenSignStatus,
});

export const getUserAgreement = defineCall({
  call: P.getUserAgreement,
  auth: false,
  summary:
    'The current digital-certificate usage agreement (version, title and text in both languages) and, with a ' +
    'session, when the caller accepted it.',
  request: zBase,
  response: z.object({
    version: z.string(),
    title: zText,
    text: zText,
    acceptedAt: z.string().nullable(),
  }),
});

export const acceptUserAgreement = defineCall({
  call: P.acceptUserAgreement,
  auth: true,
  summary: 'Records that the logged-in person accepts the agreement version shown (must be the current one).',
  request: zBase.extend({ version: z.string().min(1).max(40) }),
  response: z.object({ version: z.string(), acceptedAt: z.string() }),
});

export const createPersonCaCert = defineCall({
  call: P.createPersonCaCert,
  auth: true,
  summary:
    'Issues the person certificate after the real-name check and acceptance of the current agreement. Idempotent: ' +
    'answers the current certificate when there is one.',
  request: zBase,
  response: zPersonCert,
});

export const getPersonCaCert = defineCall({
  call: P.getPersonCaCert,
  auth: true,
  summary: "The logged-in person's current certificate, or null.",
  request: zBase,
  response: zPersonCert.nullable(),
});

export const getPersonalDetails = defineCall({
  call: P.getPersonalDetails,
  auth: true,
  summary:
    "The logged-in person's details: name, masked ID number (first 6 + last 4), masked phone (first 3 + last 4), " +
    'verification time, agreement acceptance, a summary of the current certificate, and the identity checks ' +
    "made (three-factor, face) with the provider's request id as evidence.",
  request: zBase,
  response: z.object({
    name: z.string().nullable(),
    idNumberMasked: z.string().nullable(),
    phoneMasked: z.string(),
    verifiedAt: z.string().nullable(),
    faceVerifiedAt: z.string().nullable(),
    agreementVersion: z.string().nullable(),
    agreementAcceptedAt: z.string().nullable(),
    certificate: z
      .object({ serial: z.string(), notBefore: z.string(), notAfter: z.string(), status: z.string() })
      .nullable(),
    /** Each identity check of the account, oldest first, with the provider's request id (evidence). */
    verificationRecords: z.array(
      z.object({
        kind: z.enum(['identity', 'face']),
        provider: z.string(),
        requestId: z.string().nullable(),
        outcome: z.string(),
        at: z.string(),
      }),
    ),
  }),
});

export const recoverAccountVerify = defineCall({
  call: P.recoverAccountVerify,
  auth: true,
  summary:
    'Step 1 of moving the logged-in, real-name-verified account to a new phone (the old one is lost): name and ID ' +
    'number must match the stored identity, and the new phone (not registered) proves itself by an SMS code sent ' +
    'for purpose recoverAccount. Rate-limited. Answers a ticket for recoverAccountFinish (10 minutes).',
  request: zBase.extend({ name: zPersonName, idNumber: zIdNumber, newPhone: zPhone, smsCode: zSmsCode }),
  response: z.object({ ticket: z.string(), newPhoneMasked: z.string(), expiresInSeconds: z.number().int() }),
});

export const recoverAccountFinish = defineCall({
  call: P.recoverAccountFinish,
  auth: true,
  summary:
    'Step 2: moves the account to the new phone of the ticket and ends every other session of the account ' +
    '(they answer 3000). The current session stays; the new phone logs in from now on.',
  request: zBase.extend({ ticket: z.string().min(10).max(200) }),
  response: z.object({ phoneMasked: z.string() }),
});

export const startFaceAuth = defineCall({
  call: P.startFaceAuth,
  auth: true,
  summary:
    "Starts face recognition of the logged-in, real-name-verified person: answers the identity provider's page to " +
    'open. The provider returns the browser to a result route; only its signed server callback decides the result.',
  request: zBase.extend({
    openFlag: z.enum(FACE_OPEN_FLAGS),
    businessCode: z
      .string()
      .max(64)
      .regex(/^[\w-]*$/)
      .optional(),
    deviceType: z.enum(['h5', 'pc']).optional(),
    /** Signing room to continue to after a passed check: a route of this app (starting with /). */
    signUrl: z
      .string()
      .max(500)
      .regex(/^\/[^/\\]/, bi('signUrl must be a route of this app', 'signUrl 必须是本应用内的路由'))
      .optional(),
  }),
  response: z.object({ url: z.string(), personCode: z.string(), expiresInSeconds: z.number().int() }),
});

export const getFaceAuthResult = defineCall({
  call: P.getFaceAuthResult,
  auth: false,
  summary:
    'The server-decided result of a face-recognition attempt, by the token of its result route. Never the URL: ' +
    'passed only when the provider called back with a valid signature.',
  request: zBase.extend({ token: z.string().min(10).max(200) }),
  response: z.object({
    result: z.enum(Object.values(FaceResult) as [FaceResult, ...FaceResult[]]),
    openFlag: z.string(),
    businessCode: z.string().nullable(),
    /** The signing room to continue to; only when the result is passed. */
    signUrl: z.string().nullable(),
  }),
});

export const personCalls = [
  authIdNamePhone,
  checkCurrentLoginUserOpenSign,
  getUserAgreement,
  acceptUserAgreement,
  createPersonCaCert,
  getPersonCaCert,
  getPersonalDetails,
  recoverAccountVerify,
  recoverAccountFinish,
  startFaceAuth,
  getFaceAuthResult,
] as const;
