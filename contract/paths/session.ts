// The paths of contract/calls/session.ts (zod-free: src/api/session.ts imports them).
import { csign, jinshang } from '../call-path.ts';

export const sendSmsCode = /* @__PURE__ */ csign('sendSmsCode');
export const userRegister = /* @__PURE__ */ csign('userRegister');
export const userLogin = /* @__PURE__ */ csign('userLogin');
export const userOperatorLogin = /* @__PURE__ */ csign('userOperatorLogin');
export const logout = /* @__PURE__ */ csign('logout');
export const resetPassword = /* @__PURE__ */ csign('resetPassword');
export const getEsignLoginInfo = /* @__PURE__ */ jinshang('getEsignLoginInfo');
export const getUserQualification = /* @__PURE__ */ csign('getUserQualification');
export const updateLoginUserInfoCache = /* @__PURE__ */ csign('updateLoginUserInfoCache');
export const isHyCenterLogin = /* @__PURE__ */ csign('isHyCenterLogin');
export const getSaleProductTypeList = /* @__PURE__ */ csign('getSaleProductTypeList');
