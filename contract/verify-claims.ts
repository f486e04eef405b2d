// Findings of a verification that hold only while a signature's signed bytes are intact (no zod: the client
// imports it). When the digest fails, the report and the page say only that: what changed after signing and
// whether a trusted root vouches for the signer would be statements about bytes the signature no longer holds.
export const PRESUME_INTACT = [
  'MODIFIED_ALLOWED',
  'MODIFIED_DISALLOWED',
  'UNTRUSTED',
  'NO_CHAIN',
  'REVOCATION_UNKNOWN',
] as const;

/** The reasons worth showing: without the ones that presume intact bytes when the digest failed. */
export function reasonsToShow<R extends string>(reasons: readonly R[], intact: boolean | null): R[] {
  return intact === false
    ? reasons.filter((r) => !(PRESUME_INTACT as readonly string[]).includes(r))
    : [...reasons];
}
