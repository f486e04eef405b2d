import { z } from 'zod';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/session.ts';
import { ROOM_SMS_PURPOSES, SmsPurpose } from '../enums.ts';
import { bi } from '../bilingual.ts';

/** Mainland mobile number: 11 digits starting with 1. */
export const zPhone = z
  .string()
  .regex(
    /^1\d{10}$/,
    bi('phone must be an 11-digit mainland mobile number', '手机号须为 11 位中国大陆手机号码'),
  );
export const zSmsCode = z.string().regex(/^\d{6}$/, bi('the SMS code has 6 digits', '短信验证码为 6 位数字'));
/** 8 to 64 characters with at least a letter and a digit. */
export const zPassword = z
  .string()
  .min(8, bi('password must have at least 8 characters', '密码至少 8 个字符'))
  .max(64, bi('password must have at most 64 characters', '密码最多 64 个字符'))
  .regex(/[A-Za-z]/, bi('password must contain a letter', '密码须包含字母'))
  .regex(/\d/, bi('password must contain a digit', '密码须包含数字'));

/** The login-info fields the client reads (SPEC §3), plus who is logged in. */
export const zLoginInfo = z.object({
  userId: z.string(),
  userType: z.number().int(),
  /** Login state; 11 = verified (SPEC §4). */
  loginState: z.number().int(),
  phone: z.string(),
  name: z.string().nullable(),
  /** The company acted for when userType is 1. */
  companyId: z.string().nullable(),
  companyName: z.string().nullable(),
  isAdmin: z.boolean(),
  hasCaCert: z.boolean(),
  hasSeal: z.boolean(),
  hasOperator: z.boolean(),
  /**
   * The caller's roles in the company acted for (issue 27): 'admin' for the administrator, then the granted
   * ones; empty for a person. The client hides what the caller may not do (launching without 'handler').
   */
  roles: z.array(z.enum(['admin', 'handler', 'seal_keeper', 'approver'])),
  /**
   * The caller is the company's legal representative (issue 27): they issue and revoke authorisation letters
   * and manage the seals as the administrator does.
   */
  isLegalRep: z.boolean(),
  salePackageProductTypeList: z.array(z.string()),
  totalQuantitySum: z.number().int(),
  totalReserveQuantity: z.number().int(),
  totalUseQuantity: z.number().int(),
  remainQuantity: z.number().int(),
});
export type LoginInfo = z.infer<typeof zLoginInfo>;

export const sendSmsCode = defineCall({
  call: P.sendSmsCode,
  auth: false,
  summary:
    'Send a 6-digit SMS code to a phone for one purpose (valid 5 minutes, once). The answer is the same whether or ' +
    'not the phone has an account; only the SMS tells its owner (issue 16). The signing-room purposes ' +
    "('roomLogin', 'sign') are asked only from the room (sendLinkSmsCode, sendSignSmsCode): refused here.",
  request: zBase.extend({
    phone: zPhone,
    purpose: z
      .enum(Object.values(SmsPurpose) as [string, ...string[]])
      .refine(
        (p) => !ROOM_SMS_PURPOSES.includes(p),
        bi('signing-room codes are asked from the signing room itself', '签署室验证码只能在签署室内获取'),
      ),
  }),
  response: z.object({ expiresInSeconds: z.number().int(), resendAfterSeconds: z.number().int() }),
});

export const userRegister = defineCall({
  call: P.userRegister,
  auth: false,
  summary:
    'Register a person by phone, password and SMS code; logs the new user in. The code is checked first (1200); ' +
    'a proven phone that already has an account answers 1203.',
  request: zBase.extend({ phone: zPhone, password: zPassword, smsCode: zSmsCode }),
  response: zLoginInfo,
});

export const userLogin = defineCall({
  call: P.userLogin,
  auth: false,
  summary:
    'Log in with phone and password (person account, or a company the user belongs to when userType is 1).',
  request: zBase.extend({ phone: zPhone, password: z.string().min(1).max(64) }),
  response: zLoginInfo,
});

export const userOperatorLogin = defineCall({
  call: P.userOperatorLogin,
  auth: false,
  summary:
    'Log in as an operator of a company (userType 1); companyId picks the company when there are several.',
  request: zBase.extend({
    phone: zPhone,
    password: z.string().min(1).max(64),
    companyId: z.string().optional(),
  }),
  response: zLoginInfo,
});

export const logout = defineCall({
  call: P.logout,
  auth: false,
  summary: 'End the session and clear its cookies.',
  request: zBase,
  response: z.null(),
});

export const resetPassword = defineCall({
  call: P.resetPassword,
  auth: false,
  summary:
    'Forgot password: set a new one with an SMS code sent for resetPassword; ends every session of the user.',
  request: zBase.extend({ phone: zPhone, smsCode: zSmsCode, newPassword: zPassword }),
  response: z.null(),
});

export const getEsignLoginInfo = defineCall({
  call: P.getEsignLoginInfo,
  auth: false,
  summary: 'Login-state check of the route guard: the login info when the session is valid, null otherwise.',
  request: zBase,
  response: zLoginInfo.nullable(),
});

export const getUserQualification = defineCall({
  call: P.getUserQualification,
  auth: true,
  summary: 'What the logged-in account may do: the login-info fields of SPEC §3.',
  request: zBase.extend({
    status: z.union([z.string(), z.number()]).optional(),
    id: z.union([z.string(), z.number()]).optional(),
  }),
  response: zLoginInfo,
});

export const updateLoginUserInfoCache = defineCall({
  call: P.updateLoginUserInfoCache,
  auth: true,
  summary: 'Recompute the login info of the session (after opening e-signature, buying, adding a seal...).',
  request: zBase,
  response: zLoginInfo,
});

export const isHyCenterLogin = defineCall({
  call: P.isHyCenterLogin,
  auth: false,
  summary: 'Whether the central user centre reports a login: 1 or 4 means yes (then call loginAsHy); 0 no.',
  request: zBase,
  response: z.number().int(),
});

export const getSaleProductTypeList = defineCall({
  call: P.getSaleProductTypeList,
  auth: false,
  summary: 'The sale product types of SPEC §3.',
  request: zBase,
  response: z.array(z.object({ code: z.string(), name: z.string(), nameEn: z.string() })),
});

export const sessionCalls = [
  sendSmsCode,
  userRegister,
  userLogin,
  userOperatorLogin,
  logout,
  resetPassword,
  getEsignLoginInfo,
  getUserQualification,
  updateLoginUserInfoCache,
  isHyCenterLogin,
  getSaleProductTypeList,
] as const;
