// The paths of contract/calls/centre.ts (zod-free: src/api/ imports them).
import { csign } from '../call-path.ts';

export const searchContracts = /* @__PURE__ */ csign('searchContracts');
export const getCentreLabels = /* @__PURE__ */ csign('getCentreLabels');
export const saveCentreTag = /* @__PURE__ */ csign('saveCentreTag');
export const deleteCentreTag = /* @__PURE__ */ csign('deleteCentreTag');
export const saveCentreFolder = /* @__PURE__ */ csign('saveCentreFolder');
export const deleteCentreFolder = /* @__PURE__ */ csign('deleteCentreFolder');
export const tagContracts = /* @__PURE__ */ csign('tagContracts');
export const moveContracts = /* @__PURE__ */ csign('moveContracts');
export const saveCentreView = /* @__PURE__ */ csign('saveCentreView');
export const deleteCentreView = /* @__PURE__ */ csign('deleteCentreView');
export const startContractsZip = /* @__PURE__ */ csign('startContractsZip');
export const getContractsZip = /* @__PURE__ */ csign('getContractsZip');
// GET `${path}/<zipId>` with the session: the zip's bytes, for the account that made it.
export const downloadContractsZip = /* @__PURE__ */ csign('downloadContractsZip', 'download');
