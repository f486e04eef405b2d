// Contract term rules (issue 29), zod-free: shared by the contract (term-input.ts), the server and the client.

/** The days before the end a reminder may go out; all three unless the launcher chooses. */
export const TERM_REMIND_DAYS = [30, 7, 1] as const;
/** At most this many people are told besides the launcher. */
export const TERM_MAX_PEOPLE = 5;
