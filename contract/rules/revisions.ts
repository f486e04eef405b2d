// Rules of revised documents (issue 29), shared by the server and the client (no zod).

/** The launcher's "what changed" note: at most this many characters. */
export const REVISION_NOTE_MAX = 500;
