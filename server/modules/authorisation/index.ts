// The module's use cases for other modules (server/README.md, "Two faces"); its registration is module.ts.
// The integrator API (server/open/) reads the state of the key's company's letters.
export { getForKey as authorisationForKey, listForKey as authorisationsForKey } from './service.ts';
