// The paths of contract/calls/batch.ts (zod-free: src/api/batch.ts imports them).
import { csign } from '../call-path.ts';

export const listBatchSignable = /* @__PURE__ */ csign('listBatchSignable');
export const prepareSignBatch = /* @__PURE__ */ csign('prepareSignBatch');
export const startSignBatch = /* @__PURE__ */ csign('startSignBatch');
export const getSignBatch = /* @__PURE__ */ csign('getSignBatch');
export const sendSignBatchCode = /* @__PURE__ */ csign('sendSignBatchCode');
export const startSignBatchFace = /* @__PURE__ */ csign('startSignBatchFace');
