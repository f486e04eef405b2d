// Limits of a comment on a flow (issue 29), shared by the server and the client (zod-free).

/** A comment's length, and how many one author writes on one flow per hour. */
export const COMMENT_LIMITS = { body: 2000, perHour: 60 } as const;
