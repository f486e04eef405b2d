// The paths of contract/calls/cert.ts (zod-free: src/api/cert.ts imports them).
import { csign } from '../call-path.ts';

export const getCertChangeInfo = /* @__PURE__ */ csign('getCertChangeInfo');
export const sendCertChangeSmsCode = /* @__PURE__ */ csign('sendCertChangeSmsCode');
export const renewCaCert = /* @__PURE__ */ csign('renewCaCert');
export const reissueCaCert = /* @__PURE__ */ csign('reissueCaCert');
