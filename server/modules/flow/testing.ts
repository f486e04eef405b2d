// What only tests may import of this module (server/README.md, "Two faces"; the graph rule testing-face-only-for-tests).
export { wrap } from './audit-report.ts';
export { completeStragglers } from './complete.ts';
export { afterBlobWrite, afterLastSignature } from './hooks.ts';
// Automatic signing run directly (issue 27): a test interleaves two of them to check the letter's count.
export { autoSign } from './auto-sign.ts';
export { flowRuntimeOf } from './runtime.ts';
