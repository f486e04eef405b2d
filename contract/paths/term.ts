// The paths of contract/calls/term.ts (zod-free: src/api/ imports them).
import { csign } from '../call-path.ts';

export const getFlowTerm = /* @__PURE__ */ csign('getFlowTerm');
export const setFlowTerm = /* @__PURE__ */ csign('setFlowTerm');
export const getFlowRenewal = /* @__PURE__ */ csign('getFlowRenewal');
export const listFlowTerms = /* @__PURE__ */ csign('listFlowTerms');
