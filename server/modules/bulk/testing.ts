// For tests only (server/README.md, "Two faces"): the sheet reader run in the test's own thread, so a test sees
// what reading a crafted file does to this realm's prototypes.
export { readSheet } from './sheet.ts';
