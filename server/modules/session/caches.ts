import type { LoginInfo } from '#contract/calls/session.ts';
import { writeWatchOf } from '../../db/database.ts';
import type { AppDeps } from '../../deps.ts';
import { DerivedCache } from '../../lib/derived-cache.ts';
import { definePerAppSlot } from '../../lib/per-app.ts';
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
  // Operator invitations and the company audit trail (company module, issue 6): accepting one writes
  // company_members in the same transaction, which invalidates as it should.
  'company_invitations',
  'company_events',
]);
const MAX_ENTRIES = 10_000;

type Caches = {
  /** Session row by the hash of its `sid` cookie. */
  sessions: DerivedCache<string, SessionRow | null>;
  /** Login info by session and the identity it acts as. */
  loginInfo: DerivedCache<string, LoginInfo>;
};

/**
 * Tells the database's write watch what these caches read (session module's register, when the app is
 * built): on PostgreSQL a write is then told to the other instances only when a cache reads its table.
 */
export function declareCacheReads(deps: AppDeps): void {
  const watch = writeWatchOf(deps.db);
  watch.declareReader({ tables: SESSION_TABLES });
  watch.declareReader({ except: NOT_IN_LOGIN_INFO });
}

/** The app's caches (deps.perApp): one pair per app, made on first use. */
const CACHES = definePerAppSlot<Caches>('session.caches');

export function cachesOf(deps: AppDeps): Caches {
  return deps.perApp.get(CACHES, () => {
    const watch = writeWatchOf(deps.db);
    const ttlMs = deps.config.cacheTtlMs;
    return {
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
  });
}

export const loginInfoKey = (s: { id: string; userId: string; userType: number; companyId: string | null }) =>
  `${s.id}|${s.userId}|${s.userType}|${s.companyId ?? ''}`;
