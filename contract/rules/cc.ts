// Copy recipients (抄送, issue 29): the limit the launch page and the server share (zod-free: src/ imports it).

/** At most this many copy recipients per flow. */
export const CC_LIMIT = 20;
