// The paths of contract/calls/bulk.ts (zod-free: src/api/bulk.ts imports them).
import { csign } from '../call-path.ts';

export const checkBulkSend = /* @__PURE__ */ csign('checkBulkSend', 'upload');
export const startBulkSend = /* @__PURE__ */ csign('startBulkSend');
export const getBulkSend = /* @__PURE__ */ csign('getBulkSend');
export const listBulkSends = /* @__PURE__ */ csign('listBulkSends');

// GET downloads (bulk/module.ts): `${path}/<templateId>` the sheet to fill; `${path}/<bulkId>` the results.
export const downloadBulkSheet = /* @__PURE__ */ csign('downloadBulkSheet', 'download');
export const downloadBulkResults = /* @__PURE__ */ csign('downloadBulkResults', 'download');
