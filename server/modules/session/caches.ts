import type { LoginInfo } from '#contract/calls/session.ts';
import { type Db, writeWatchOf } from '../../db/database.ts';
import type { AppDeps } from '../../deps.ts';
import { DerivedCache } from '../../lib/derived-cache.ts';
import type { SessionRow } from './session-queries.ts';

// Every call looks its session up and the client asks for the login info on every screen: both are read
// far more often than they change, so they are cached per process (db/write-watch.ts says when not).

/** The tables a session row is read from. */
const SESSION_TABLES = ['sessions', 'users'] as const;
/**
 * Tables the login info never reads: writes there (a session seen, an SMS sent, a rate counter) leave it
 * valid. Every other table's writes invalidate it, so a table added later is safe by default.
 */
const NOT_IN_LOGIN_INFO: ReadonlySet<string> = new Set([
  'sessions',
  'sms_codes',
  'sms_locks',
  'outbox',
  'rate_counters',
  'audit_entries',
  'verify_reports',
  'room_tokens',
  'partner_token_uses',
  'face_auth_sessions',
  'flow_messages',
]);
const MAX_ENTRIES = 10_000;

type Caches = {
  /** Session row by the hash of its `sid` cookie. */
  sessions: DerivedCache<string, SessionRow | null>;
  /** Login info by session and the identity it acts as. */
  loginInfo: DerivedCache<string, LoginInfo>;
};

const byDb = new WeakMap<Db, Caches>();

export function cachesOf(deps: AppDeps): Caches {
  let caches = byDb.get(deps.db);
  if (!caches) {
    const watch = writeWatchOf(deps.db);
    const ttlMs = deps.config.cacheTtlMs;
    caches = {
      sessions: new DerivedCache({
        maxEntries: MAX_ENTRIES,
        ttlMs,
        stamp: () => watch.stampOf(SESSION_TABLES),
      }),
      loginInfo: new DerivedCache({
        maxEntries: MAX_ENTRIES,
        ttlMs,
        stamp: () => watch.stampExcept(NOT_IN_LOGIN_INFO),
      }),
    };
    byDb.set(deps.db, caches);
  }
  return caches;
}

export const loginInfoKey = (s: { id: string; userId: string; userType: number; companyId: string | null }) =>
  `${s.id}|${s.userId}|${s.userType}|${s.companyId ?? ''}`;
