/**
 * Constants of documents that both sides use at runtime (no zod here, so the client may import them).
 */

/** Points per millimetre (PDF user space unit = 1/72 inch): the one definition, client and server. */
export const PT_PER_MM = 72 / 25.4;
/** Largest drawn-signature PNG accepted by signDocument, in bytes (before base64). */
export const SIGNATURE_PNG_MAX_BYTES = 512 * 1024;
