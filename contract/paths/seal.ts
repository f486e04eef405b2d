// The paths of contract/calls/seal.ts (zod-free: src/api/seal.ts imports them).
import { csign } from '../call-path.ts';

export const getUserCertSealList = /* @__PURE__ */ csign('getUserCertSealList');
export const savePersonSeal = /* @__PURE__ */ csign('savePersonSeal');
export const saveCompanySeal = /* @__PURE__ */ csign('saveCompanySeal');
export const savePersonImageSeal = /* @__PURE__ */ csign('savePersonImageSeal', 'upload');
export const saveCompanyCustomizeSeal = /* @__PURE__ */ csign('saveCompanyCustomizeSeal', 'upload');
export const previewSeal = /* @__PURE__ */ csign('previewSeal');
export const setSealStatus = /* @__PURE__ */ csign('setSealStatus');
export const deleteSeal = /* @__PURE__ */ csign('deleteSeal');
export const authoriseSeal = /* @__PURE__ */ csign('authoriseSeal');
export const revokeSealAuthorisation = /* @__PURE__ */ csign('revokeSealAuthorisation');
export const listSealOperators = /* @__PURE__ */ csign('listSealOperators');
export const checkAntiCounterfeitNo = /* @__PURE__ */ csign('checkAntiCounterfeitNo');
export const setSealKeepers = /* @__PURE__ */ csign('setSealKeepers');
