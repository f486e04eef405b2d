// The paths of contract/calls/platform.ts (zod-free: src/api/platform.ts imports them).
import { csign } from '../call-path.ts';

export const getPlatformConfig = /* @__PURE__ */ csign('getPlatformConfig');
