// The paths of contract/calls/approval.ts (zod-free: src/api/approval.ts imports them).
import { csign } from '../call-path.ts';

export const getSealPolicy = /* @__PURE__ */ csign('getSealPolicy');
export const saveSealPolicy = /* @__PURE__ */ csign('saveSealPolicy');
export const getRoomApprovals = /* @__PURE__ */ csign('getRoomApprovals');
export const requestSealApproval = /* @__PURE__ */ csign('requestSealApproval');
export const getLaunchPolicy = /* @__PURE__ */ csign('getLaunchPolicy');
export const saveLaunchPolicy = /* @__PURE__ */ csign('saveLaunchPolicy');
export const listApprovals = /* @__PURE__ */ csign('listApprovals');
export const getApproval = /* @__PURE__ */ csign('getApproval');
export const decideApproval = /* @__PURE__ */ csign('decideApproval');
/** GET `${approvalDocument.path}/<approvalId>/<documentId>.pdf`: the version the approval is bound to. */
export const approvalDocument = /* @__PURE__ */ csign('approvalDocument', 'download');
