// What only tests may import of this module (server/README.md, "Two faces"; the graph rule testing-face-only-for-tests).
export { wrap } from './audit-report.ts';
export { completeStragglers } from './complete.ts';
export { afterBlobWrite, afterLastSignature } from './hooks.ts';
