import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Code, HttpStatus } from '#contract/codes.ts';
import {
  FRAME_HEADER,
  FRAME_SESSION_HEADER,
  KEY_SUFFIX_HEADER,
  SESSION_COOKIE,
  TOKEN_COOKIE,
  XSRF_HEADER,
  keySuffixOf,
} from '#contract/transport.ts';
import { SessionEndReason } from '../../db/schema/accounts.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { LiveSession, SessionLookup } from '../../http/session-gate.ts';
import { T } from '../../http/texts.ts';
import { cachesOf } from './caches.ts';
import {
  endSession,
  endUserSessions,
  findSessionBySidHash,
  insertSession,
  liveSessionIds,
  touchSession,
} from './session-queries.ts';

// The transport's view of a session (http/session-gate.ts); this module supplies the gate (routes.ts).
export type { LiveSession } from '../../http/session-gate.ts';

/** Cookie lifetime (SPEC §9: 1 day) and the session's absolute lifetime. */
const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;
// last_seen is written at most this often: one write per minute of activity instead of one per request.
const TOUCH_EVERY_MS = 60_000;

const hashSid = (sid: string) => createHash('sha256').update(sid).digest('hex');

/** The session secret a request carries: a framed page's header (transport.ts FRAME_HEADER), else the cookie. */
function sidOf(req: FastifyRequest): string | undefined {
  const header = req.headers[FRAME_SESSION_HEADER];
  return typeof header === 'string' && header !== '' ? header : req.cookies[SESSION_COOKIE];
}

/** True when the client says it runs inside a frame (transport.ts FRAME_HEADER). */
const isFramed = (req: FastifyRequest) => req.headers[FRAME_HEADER] === '1';

/** Finds the session of the request's secret (`sid` cookie or a framed page's header) and decides whether it is live. */
export async function lookupSession(deps: AppDeps, req: FastifyRequest): Promise<SessionLookup> {
  const sid = sidOf(req);
  if (!sid || sid.length > 200) return { state: 'none' };
  const sidHash = hashSid(sid);
  const now = deps.clock.now();
  const row = await cachesOf(deps).sessions.get(
    sidHash,
    now.getTime(),
    () => findSessionBySidHash(deps.db, sidHash),
    (found) => found !== null, // unknown cookies are not kept: a flood of made-up ones cannot fill the cache
  );
  if (!row) return { state: 'none' };
  if (row.endedReason) return { state: 'ended', reason: row.endedReason };
  // A disabled account loses its sessions at its next request: they end with the reason the client is told.
  if (row.userStatus !== 'active') {
    await endUserSessions(deps.db, row.userId, SessionEndReason.Disabled, now);
    return { state: 'ended', reason: SessionEndReason.Disabled };
  }
  const idleMs = now.getTime() - row.lastSeenAt.getTime();
  if (idleMs > deps.config.sessionIdleMs || now.getTime() >= row.expiresAt.getTime()) {
    await endSession(deps.db, row.id, SessionEndReason.Timeout, now);
    return { state: 'ended', reason: SessionEndReason.Timeout };
  }
  if (idleMs > TOUCH_EVERY_MS) await touchSession(deps.db, row.id, now);
  return {
    state: 'live',
    session: {
      id: row.id,
      userId: row.userId,
      userType: row.userType,
      companyId: row.companyId,
      token: row.token,
      via: { kind: 'session', sessionId: row.id },
    },
  };
}

/** The refusal a call that needs a login gets when the session is not live (ARCHITECTURE.md, SPEC §8). */
export function refusalFor(lookup: Exclude<SessionLookup, { state: 'live' }>): AppError {
  if (lookup.state === 'none') return new AppError(Code.NotLoggedIn, T.notLoggedIn);
  switch (lookup.reason) {
    case SessionEndReason.Evicted:
      return new AppError(Code.LoggedInElsewhere, T.loggedInElsewhere);
    case SessionEndReason.Disabled:
      return new AppError(Code.AccountDisabled, T.accountDisabled);
    case SessionEndReason.Timeout:
      return new AppError(Code.NotLoggedIn, T.sessionTimedOut, { status: HttpStatus.SessionTimedOut });
    case SessionEndReason.PasswordReset:
      return new AppError(Code.NotLoggedIn, T.passwordChanged);
    default:
      return new AppError(Code.NotLoggedIn, T.notLoggedIn);
  }
}

const sameText = (a: string | undefined, b: string) =>
  a !== undefined && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * XSRF rule for a call made with a live session: the `x-xsrf-token` header must equal the session's
 * token, `keysuffix` must equal keySuffixOf(token), and a `token` cookie, when sent, must agree too.
 * A cross-site page can make the browser send the cookies but cannot read the token to set the headers.
 */
export function checkXsrf(req: FastifyRequest, session: LiveSession): void {
  const header = req.headers[XSRF_HEADER];
  const suffix = req.headers[KEY_SUFFIX_HEADER];
  const cookie = req.cookies[TOKEN_COOKIE];
  const ok =
    typeof header === 'string' &&
    typeof suffix === 'string' &&
    sameText(header, session.token) &&
    sameText(suffix, keySuffixOf(session.token)) &&
    (cookie === undefined || sameText(cookie, session.token));
  if (!ok) throw new AppError(Code.XsrfRejected, T.xsrfRejected, { status: 403 });
}

/**
 * The session cookies' attributes. First-party: SameSite=Lax. For a framed client: SameSite=None; Secure;
 * Partitioned, the only kind a cross-site frame keeps when third-party cookies are blocked; the browser refuses a
 * Secure cookie on plain http except on localhost and 127.0.0.1, and then the page's header alone carries the
 * session.
 */
function cookieOptions(deps: AppDeps, httpOnly: boolean, framed: boolean) {
  const base = { path: '/', httpOnly, maxAge: SESSION_LIFETIME_MS / 1000 };
  if (framed) return { ...base, sameSite: 'none' as const, secure: true, partitioned: true };
  return { ...base, sameSite: 'lax' as const, secure: deps.config.isSecureCookies };
}

/**
 * Starts a session for a user and sets its cookies. At most SESSION_MAX_PER_USER live sessions per user:
 * the oldest beyond that end as 'evicted', and their next call answers 3000 (logged in elsewhere). The browser's
 * `replacing` session (a login from a browser already logged in) ends as a logout.
 */
export async function startSession(
  deps: AppDeps,
  reply: FastifyReply,
  who: { userId: string; userType: number; companyId: string | null },
  replacing: LiveSession | null = null,
): Promise<LiveSession> {
  const sid = randomBytes(32).toString('base64url');
  const token = randomBytes(24).toString('base64url');
  const now = deps.clock.now();
  // Logging in again from the same browser replaces its session rather than stacking a second one.
  if (replacing) await endSession(deps.db, replacing.id, SessionEndReason.Logout, now);
  const id = await insertSession(deps.db, {
    sidHash: hashSid(sid),
    token,
    userId: who.userId,
    userType: who.userType,
    companyId: who.companyId,
    now,
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
  });
  const live = await liveSessionIds(deps.db, who.userId);
  const excess = live
    .filter((x) => x !== id)
    .slice(0, Math.max(0, live.length - deps.config.sessionMaxPerUser));
  for (const old of excess) await endSession(deps.db, old, SessionEndReason.Evicted, now);
  const framed = isFramed(reply.request);
  reply.setCookie(SESSION_COOKIE, sid, cookieOptions(deps, true, framed));
  reply.setCookie(TOKEN_COOKIE, token, cookieOptions(deps, false, framed));
  if (framed) {
    // For the page's memory, where its browser keeps no cookie (never stored by any cache on the way).
    reply.header(FRAME_SESSION_HEADER, sid).header(XSRF_HEADER, token).header('cache-control', 'no-store');
  }
  return {
    id,
    userId: who.userId,
    userType: who.userType,
    companyId: who.companyId,
    token,
    via: { kind: 'session', sessionId: id },
  };
}

export function clearSessionCookies(deps: AppDeps, reply: FastifyReply): void {
  const { maxAge: _maxAge, ...base } = cookieOptions(deps, true, isFramed(reply.request));
  reply.clearCookie(SESSION_COOKIE, base);
  reply.clearCookie(TOKEN_COOKIE, { ...base, httpOnly: false });
}
