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
  /** The phone is already registered (told only after an SMS code proved the phone: no account discovery). */
  PhoneTaken: 1203,
  /** The SMS gateway did not take the message (msg says why, with the provider's code); try again later. */
  SmsNotSent: 1204,
  /** Signing flow (13xx): it is not this party's turn (an earlier step is still signing). */
  NotYourTurn: 1301,
  /** Signing flow: this party has already signed. */
  AlreadySigned: 1302,
  /** Signing flow: the flow's deadline has passed. */
  DeadlinePassed: 1303,
  /** Signing flow: the signer's account (or the company) has no certificate; open e-signature first. */
  SignerNoCertificate: 1305,
  /** Signing flow: the chosen seal is not the signer's, disabled, or not authorised to them now. */
  SealNotUsable: 1306,
  /** Signing flow: the party's intent check is not met (no passed face check of this party, no signing password set). */
  IntentNotConfirmed: 1307,
  /** Signing flow: too many wrong signing passwords; locked for a while (msg says how long). */
  SigningPasswordLocked: 1308,
  /** Signing flow: the flow is completed, declined, expired or cancelled. */
  FlowClosed: 1311,
  /** Signing link: unknown link, or the phone is not the party's. */
  LinkInvalid: 1312,
  /** Signing room: the room token is unknown or expired; open the link again. */
  RoomTokenInvalid: 1313,
  /** Upload refused: not a PDF, encrypted, damaged, empty or too large (msg says which). */
  DocumentRejected: 1320,
  /** No signing left in the account's quota. */
  QuotaExhausted: 1321,
  /** The document was being signed by someone else and stayed busy; try again. */
  SigningBusy: 1322,
  /**
   * Seal governance (issue 27): this company seal needs an approval for this use (用印审批) and there is no
   * approved, unexpired one bound to this party, seal and document version. `data`: `{sealId, approvalId,
   * status}` (the latest request, null when none was made).
   */
  SealApprovalRequired: 1330,
  /** Seal governance: the company requires approval before a handler's flow is sent; it waits for it. */
  LaunchApprovalRequired: 1331,
  /** Partner login (18xx): the jsToken is not a well-formed compact JWS with the required claims. */
  PartnerTokenMalformed: 1800,
  /** Partner login: the token's issuer is not a configured partner platform. */
  PartnerUnknown: 1801,
  /** Partner login: the signature does not verify with the partner's secret or public key. */
  PartnerTokenSignature: 1802,
  /** Partner login: the token has expired (or lives longer than allowed). */
  PartnerTokenExpired: 1803,
  /** Partner login: the token is not valid yet (nbf / iat in the future). */
  PartnerTokenNotYetValid: 1804,
  /** Partner login: the token is meant for another audience. */
  PartnerTokenAudience: 1805,
  /** Partner login: the token (its jti) was already used. */
  PartnerTokenReplayed: 1806,
  /** Partner login: the partner user and the account of that phone are linked to different identities. */
  PartnerLinkConflict: 1807,
  /** loginAsHy: the central user centre reports no login. */
  CentralNotLoggedIn: 1808,
  /** Verification (19xx): the uploaded file is empty. */
  VerifyEmpty: 1901,
  /** Verification: the file is not a PDF document. */
  VerifyNotPdf: 1902,
  /** Verification: the file is larger than the verification size limit. */
  VerifyTooLarge: 1903,
  /** Verification: the PDF is encrypted and cannot be verified. */
  VerifyEncrypted: 1904,
  /** Verification: the PDF structure cannot be read. */
  VerifyUnreadable: 1905,
  /** Verification: it took longer than the time limit. */
  VerifyTimeout: 1906,
  /** Integrator API (21xx, /open/v1, HTTP 401): no API key, or an unknown, revoked or unusable one. */
  ApiKeyInvalid: 2101,
  /** Integrator API (HTTP 403): the API key lacks the scope this route needs (msg names it). */
  ApiScopeMissing: 2102,
  /** Integrator API (HTTP 422): the Idempotency-Key was used before with another request. */
  IdempotencyConflict: 2103,
  /** Integrator API (HTTP 409): the first request with this Idempotency-Key is still being answered. */
  IdempotencyInProgress: 2104,
  /** Unexpected failure inside the server; details are only in the server log. */
  Internal: 5000,
} as const;
export type Code = (typeof Code)[keyof typeof Code];

/** Codes on which the client clears the token cookie and the cached user info (SPEC §4). */
export const SESSION_CLEARING_CODES: readonly number[] = [
  Code.NotLoggedIn,
  Code.LoggedInElsewhere,
  Code.AccountDisabled,
];

/** HTTP statuses with a meaning of their own (SPEC §8). */
export const HttpStatus = {
  /** Session timed out. */
  SessionTimedOut: 601,
  /** The caller has no permission for this call. */
  NoPermission: 602,
} as const;
