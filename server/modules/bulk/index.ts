// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
// The integrator API (server/open/) checks rows given as JSON, starts and reads batches with these.
export { checkJsonRows, get as getBulkSend, start as startBulkSend } from './service.ts';
export { batchCounts, sendBatch } from './send.ts';
export { afterRowLaunch } from './hooks.ts';
