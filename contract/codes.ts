/**
 * Business codes carried in the `code` field of every `{code, msg, data}` envelope.
 * 0 is success. 2000/3000/4000 are the session codes the client reacts to (SPEC §8);
 * the others are this product's own and each names one kind of refusal.
 */
export const Code = {
  Ok: 0,
  /** Not logged in, or the session ended. Client clears its login. */
  NotLoggedIn: 2000,
  /** Logged in elsewhere. Client clears its login, re-attempts login after 1.5 s and reloads. */
  LoggedInElsewhere: 3000,
  /** Account disabled. Client clears its login. */
  AccountDisabled: 4000,
  /** The body failed its schema (wrong type, missing field, malformed JSON). */
  BadRequest: 1001,
  /** `userType` missing or below 0. */
  UserTypeInvalid: 1002,
  /** The body is larger than allowed. */
  PayloadTooLarge: 1003,
  /** No such call. */
  UnknownCall: 1004,
  /** Too many requests from this client; try later. */
  RateLimited: 1005,
  /** XSRF token or keySuffix header missing or not matching the session. */
  XsrfRejected: 1006,
  /** A business rule refused the request; msg says which. */
  Refused: 1100,
  /** The thing asked for does not exist (or is not the caller's). */
  NotFound: 1101,
  /** The SMS code is wrong, expired or already used. */
  SmsCodeInvalid: 1200,
  /** Too many wrong SMS codes; the phone is locked for a while. */
  SmsLocked: 1201,
  /** Phone or password wrong. */
  BadCredentials: 1202,
  /** The phone is already registered. */
  PhoneTaken: 1203,
  /** Unexpected failure inside the server; details are only in the server log. */
  Internal: 5000,
} as const;
export type Code = (typeof Code)[keyof typeof Code];

/** Codes on which the client clears the token cookie and the cached user info (SPEC §4). */
export const SESSION_CLEARING_CODES: readonly number[] = [Code.NotLoggedIn, Code.LoggedInElsewhere, Code.AccountDisabled];

/** HTTP statuses with a meaning of their own (SPEC §8). */
export const HttpStatus = {
  /** Session timed out. */
  SessionTimedOut: 601,
  /** The caller has no permission for this call. */
  NoPermission: 602,
} as const;
