// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
export { frameAncestorsOf } from './framing.ts';
