// The paths of contract/calls/reassign.ts (zod-free: src/api/ imports them).
import { csign } from '../call-path.ts';

export const listReassignCandidates = /* @__PURE__ */ csign('listReassignCandidates');
export const reassignParty = /* @__PURE__ */ csign('reassignParty');
export const listReassignments = /* @__PURE__ */ csign('listReassignments');
export const changeFlowDeadline = /* @__PURE__ */ csign('changeFlowDeadline');
export const copySigningLink = /* @__PURE__ */ csign('copySigningLink');
