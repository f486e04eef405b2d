/**
 * Transport rules shared by the client (src/api/http.ts) and the server (session checks), SPEC §7.
 */

/** Readable cookie holding the session's XSRF token; its presence drives the client's route guard. */
export const TOKEN_COOKIE = 'token';
/** HttpOnly cookie holding the session secret. */
export const SESSION_COOKIE = 'sid';
/** Header carrying the `token` cookie's value on every request. */
export const XSRF_HEADER = 'x-xsrf-token';
/** Header carrying keySuffixOf(token). */
export const KEY_SUFFIX_HEADER = 'keysuffix';
/**
 * Sent with the value '1' by a client that runs inside a frame. A partner's page on another site frames the
 * product, and there a browser may refuse the product's cookies (SameSite=Lax ones always; Safari, and Chromium
 * with third-party cookies blocked, every unpartitioned one). A login from a framed client therefore gets its
 * cookies as `SameSite=None; Secure; Partitioned` (kept per partner site, allowed where third-party cookies are
 * blocked, so a reload in the frame keeps the session) AND its secret in FRAME_SESSION_HEADER of the answer
 * (the XSRF token in XSRF_HEADER), which the page keeps in memory and sends back on every request: the session
 * works even where the browser keeps no cookie at all.
 */
export const FRAME_HEADER = 'x-esign-frame';
/** A framed page's session secret: answered to a framed login, sent back by the page instead of the `sid` cookie. */
export const FRAME_SESSION_HEADER = 'x-esign-session';
/** Request time-out of the client, ms (SPEC §9). */
export const REQUEST_TIMEOUT_MS = 180_000;

/**
 * The `keySuffix` header value for a session token: 8 hex digits of FNV-1a (32-bit) over the token.
 * Pure and synchronous so that it works in any browser context (crypto.subtle is missing on plain http).
 * It is a second header a cross-site form cannot forge; the secret itself stays in the HttpOnly `sid`.
 */
export function keySuffixOf(token: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) {
    hash ^= token.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** Where pdf.js finds its data files (CMaps, standard fonts, wasm, ICC): `${PDFJS_ASSETS_PATH}/cmaps/` etc. */
export const PDFJS_ASSETS_PATH = '/v1/pdfjs';
