import { FRAME_HEADER, FRAME_SESSION_HEADER } from '#contract/transport.ts';
import { browser } from '@/lib/browser.ts';

/**
 * A framed page's session (contract/transport.ts FRAME_HEADER): the secret and XSRF token a login answered in
 * its headers, kept in this page's memory only (never in storage), for browsers that keep no cookie in a
 * cross-site frame. A reload forgets it; the partitioned cookies of the same login keep the session where the
 * browser allows them.
 */
let frameSession: { sid: string; token: string } | null = null;

/** Keep the session a framed login answered (src/api/http.ts reads it from the answer's headers). */
export function keepFrameSession(sid: string, token: string): void {
  frameSession = { sid, token };
}

export function forgetFrameSession(): void {
  frameSession = null;
}

/** The XSRF token of the session this page holds in memory, if any. */
export const frameSessionToken = (): string | undefined => frameSession?.token;

/**
 * What a framed page adds to every request, calls, uploads and the PDF viewer's downloads alike: that it is
 * framed, and the session secret its login answered. Empty outside a frame.
 */
export function frameHeaders(): Record<string, string> {
  if (!browser.isFramed()) return {};
  return frameSession
    ? { [FRAME_HEADER]: '1', [FRAME_SESSION_HEADER]: frameSession.sid }
    : { [FRAME_HEADER]: '1' };
}
