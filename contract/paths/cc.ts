// The paths of contract/calls/cc.ts (zod-free: src/api/cc.ts imports them).
import { csign } from '../call-path.ts';

export const getCcView = /* @__PURE__ */ csign('getCcView');
export const listFlowCc = /* @__PURE__ */ csign('listFlowCc');
export const addFlowCc = /* @__PURE__ */ csign('addFlowCc');
export const listCopiedToMe = /* @__PURE__ */ csign('listCopiedToMe');
export const openCopiedFlow = /* @__PURE__ */ csign('openCopiedFlow');
// GET `${path}/<documentId>?ccToken=...`: the document (signed PDF once complete); `${path}/report?ccToken=`.
export const downloadCcDocument = /* @__PURE__ */ csign('downloadCcDocument', 'download');

/** SPA path of a copy recipient's read-only link (hash router): `/ccView/:ccToken`. */
export const CC_VIEW_ROUTE = '/ccView';
