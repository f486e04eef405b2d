// The paths of contract/calls/rescission.ts (zod-free: src/api/ imports them).
import { csign } from '../call-path.ts';

export const startRescission = /* @__PURE__ */ csign('startRescission');
export const getRescission = /* @__PURE__ */ csign('getRescission');
