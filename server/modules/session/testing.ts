// What only tests may import of this module (server/README.md, "Two faces"; the graph rule testing-face-only-for-tests).
// setUserStatus: a test disables an account as an operator would in the database.
export { setUserStatus } from './account-queries.ts';
