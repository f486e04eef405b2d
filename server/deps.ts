import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { Clock } from './lib/clock.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { Hooks } from './lib/hooks.ts';
import type { PerApp } from './lib/per-app.ts';
import type { Messenger } from './messaging/messenger.ts';
import type { BlobStore } from './storage/blob-store.ts';

export { type Clock, systemClock } from './lib/clock.ts';

/**
 * Everything a module may use, built once in serve.ts (or by the test helper) and handed to buildApp.
 * The server keeps no request state in memory: all of it lives in `db` and `storage`. What it does keep
 * are caches of derived data (a cookie's session, a login's info) that a write seen here invalidates at
 * once and that expire after CACHE_TTL_MS, so several instances behind a load balancer stay consistent.
 */
export type AppDeps = {
  config: Config;
  db: Db;
  storage: BlobStore;
  log: Logger;
  messenger: Messenger;
  clock: Clock;
  /** Extension points between modules (lib/hooks.ts): one set per app. */
  hooks: Hooks;
  /** Background jobs (server/jobs): a module sends; its own `jobs` definitions run them. */
  jobs: JobQueue;
  /** Objects modules keep for this app (lib/per-app.ts): the PKI, session caches, chosen providers. */
  perApp: PerApp;
};
