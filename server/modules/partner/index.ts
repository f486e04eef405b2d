// The module's use cases for other modules and tools (server/README.md, "Two faces"); its registration is
// module.ts. A development tool or a test acting as a partner platform mints the token a partner would send.
export { mintPartnerToken, signingKeyFor } from './partner-token.ts';
