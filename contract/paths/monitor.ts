// The paths of contract/calls/monitor.ts (zod-free: src/api/platform.ts imports them).
import { csign } from '../call-path.ts';

export const getServiceStatus = /* @__PURE__ */ csign('getServiceStatus');
