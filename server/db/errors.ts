/**
 * Whether a failed statement broke a unique index (SQLSTATE 23505): the one database failure that callers
 * turn into an answer ("this phone is taken", "already verified"). Every other failure stays a failure.
 */
export function isUniqueViolation(err: unknown): boolean {
  let e: unknown = err;
  // drizzle wraps driver errors; the SQLSTATE is on the cause.
  for (let i = 0; i < 3 && e; i++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
