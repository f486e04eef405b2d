// What only tests may import of this module (server/README.md, "Two faces"; the graph rule testing-face-only-for-tests).
export { platformRevocation } from './platform-revocation.ts';
export { findReport, insertReport } from './queries.ts';
export { packReport, unpackReport } from './report-codec.ts';
export { loadVerifySettings } from './settings.ts';
export { VerifyPool } from './worker-pool.ts';
