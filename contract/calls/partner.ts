import { z } from 'zod';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/partner.ts';
import { zLoginInfo } from './session.ts';
import { bi } from '../bilingual.ts';

/**
 * Partner and central-platform login (SPEC §6, §7).
 *
 * A partner platform (ZHDB, ZYPT, ...) logs its user in here with a short-lived token it signed:
 * `POST /v1/jinshang/login/api/csign/loginEsign?jsToken=<compact JWS>`, the body carrying only userType.
 * The token is a compact JWS (HS256 with the partner's shared secret, or RS256 / ES256 with its key pair)
 * whose payload holds:
 *   iss   the partner's platform code (ZHDB, ZYPT), as configured here
 *   aud   this platform's audience (PARTNER_AUDIENCE, default 'bcp-esign'); a string or an array
 *   sub   the user's id on the partner platform (1..128 characters)
 *   phone the user's mainland mobile number (11 digits): the account here is found or opened by it
 *   name  optional display name
 *   jti   a unique id (1..128 characters); a token is accepted once
 *   iat, exp (nbf optional): NumericDate seconds; exp - iat at most 300 s; 30 s of clock skew are allowed
 */

/** Longest lifetime (exp - iat) a partner token may have, in seconds. */
export const PARTNER_TOKEN_MAX_LIFETIME_SECONDS = 300;
/** Clock difference tolerated between the partner and this server, in seconds. */
export const PARTNER_TOKEN_CLOCK_SKEW_SECONDS = 30;
/** Name of the query parameter carrying the partner token (to the server, and in links to the client). */
export const JS_TOKEN_PARAM = 'jsToken';

/** The query of loginEsign: the token travels in the URL as the spec has it. */
export const zLoginEsignQuery = z.object({
  jsToken: z
    .string()
    .min(1, bi('jsToken is required', '缺少 jsToken'))
    .max(8192, bi('jsToken is too long', 'jsToken 过长')),
});

export const loginEsign = defineCall({
  call: P.loginEsign,
  auth: false,
  summary:
    'Partner login: ?jsToken=<compact JWS signed by the partner> (claims iss, aud, sub, phone, name?, jti, iat, exp). ' +
    'Verifies signature, time, audience, issuer and single use; opens (by phone) or links the account and starts a ' +
    'session of the person account. Answers the login info. Refusals: codes 1800-1807.',
  request: zBase,
  response: zLoginInfo,
});

/** Who the session is on the partner platform it came from. */
export const zPartnerIdentity = z.object({
  /** The partner's platform code (fromPtCode). */
  fromPtCode: z.string(),
  fromPtName: z.string(),
  partnerUserId: z.string(),
  name: z.string().nullable(),
});
export type PartnerIdentity = z.infer<typeof zPartnerIdentity>;

export const getLoginInfoFromJinshang = defineCall({
  call: P.getLoginInfoFromJinshang,
  auth: false,
  summary:
    'The partner-side identity of the session (platform code and name, partner user id, name) when it was started ' +
    'by loginEsign; null for other sessions and without a session.',
  request: zBase,
  response: zPartnerIdentity.nullable(),
});

export const loginAsHy = defineCall({
  call: P.loginAsHy,
  auth: false,
  summary:
    'Converts the login the central user centre reports (isHyCenterLogin 1 or 4) into a session here: the account of ' +
    'its phone, opened if absent; a company login (4) acts for a company of that account when there is one. ' +
    'Refused with 1808 when the central user centre reports no login.',
  request: zBase,
  response: zLoginInfo,
});

export const partnerCalls = [loginEsign, getLoginInfoFromJinshang, loginAsHy] as const;
