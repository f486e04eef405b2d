// The paths of contract/calls/person.ts (zod-free: src/api/person.ts imports them).
import { csign } from '../call-path.ts';

export const authIdNamePhone = /* @__PURE__ */ csign('authIdNamePhone');
export const checkCurrentLoginUserOpenSign = /* @__PURE__ */ csign('checkCurrentLoginUserOpenSign');
export const getUserAgreement = /* @__PURE__ */ csign('getUserAgreement');
export const acceptUserAgreement = /* @__PURE__ */ csign('acceptUserAgreement');
export const createPersonCaCert = /* @__PURE__ */ csign('createPersonCaCert');
export const getPersonCaCert = /* @__PURE__ */ csign('getPersonCaCert');
export const getPersonalDetails = /* @__PURE__ */ csign('getPersonalDetails');
export const recoverAccountVerify = /* @__PURE__ */ csign('recoverAccountVerify');
export const recoverAccountFinish = /* @__PURE__ */ csign('recoverAccountFinish');
export const startFaceAuth = /* @__PURE__ */ csign('startFaceAuth');
export const getFaceAuthResult = /* @__PURE__ */ csign('getFaceAuthResult');
