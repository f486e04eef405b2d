// What only tests may import of this module (server/README.md, "Two faces"; the graph rule testing-face-only-for-tests).
export { signJws } from './jws.ts';
export { devHySessionValue } from './central-platform.ts';
