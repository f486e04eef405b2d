// The paths of contract/calls/partner.ts (zod-free: src/api/partner.ts imports them).
import { csign, jinshang } from '../call-path.ts';

export const loginEsign = /* @__PURE__ */ jinshang('loginEsign');
export const getLoginInfoFromJinshang = /* @__PURE__ */ jinshang('getLoginInfoFromJinshang');
export const loginAsHy = /* @__PURE__ */ csign('loginAsHy');
