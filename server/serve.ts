// The server: config -> database (migrations) -> storage -> app -> listen. Loaded by server/main.ts.
import '../scripts/require-node24.ts';
import pino from 'pino';
import { buildApp, createHooks, createJobs } from './app.ts';
import { PerApp } from './lib/per-app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { closeDatabase, openDatabase } from './db/database.ts';
import { type AppDeps, systemClock } from './deps.ts';
import { pruneCounters } from './db/rate-counter.ts';
import { loggerOptions } from './lib/logger.ts';
import { writeServerPid } from './lib/server-pid.ts';
import { releaseStartupGarbage } from './lib/startup-garbage.ts';
import { createMessenger } from './messaging/create-messenger.ts';
import { developmentProvidersMessage } from './providers/production-check.ts';
import { seedCatalogue } from './modules/package/index.ts';
import { prepareCaFiles } from './modules/pki/index.ts';
import { openBlobStore } from './storage/open-blob-store.ts';

/** How long after listen the start-up garbage is collected (well before the memory settles, ~1 s). */
const STARTUP_GARBAGE_DELAY_MS = 200;

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

// Production never runs on a development provider unless ALLOW_DEVELOPMENT_PROVIDERS names it.
const refusal = developmentProvidersMessage(config);
if (refusal) {
  console.error(refusal);
  process.exit(1);
}

const log = pino(loggerOptions(config));
log.info({ node: process.version, env: config.nodeEnv }, `starting on Node ${process.version}`);
if (!config.masterKey && !config.isProduction) {
  log.warn(
    'ESIGN_MASTER_KEY is not set: a development key is used for keys at rest (never do this in production)',
  );
}

const started = performance.now();
const perApp = new PerApp();
// The CA's files: at a first start their four keys (EC: a few milliseconds; an RSA hierarchy took seconds). The start
// does not wait for them: they are made beside the database's start and the app's build, and the server
// listens meanwhile; a call that needs the CA (pkiFor) waits until they are complete. A CA that cannot be
// made or loaded (e.g. production without ESIGN_MASTER_KEY, a broken file) stops the server, as before.
const caReady = prepareCaFiles({ config, log, clock: systemClock, perApp });
caReady.then(
  () => log.info({ ms: Math.round(performance.now() - started) }, 'certificate authority ready'),
  (err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
const db = await openDatabase(config, {
  openPool: true,
  onSyncError: (err) =>
    log.warn({ err }, 'telling other instances about writes failed; their caches expire by CACHE_TTL_MS'),
});
const storage = await openBlobStore(config);
const jobs = createJobs({ db, log, config });
const deps: AppDeps = {
  config,
  db,
  storage,
  log,
  clock: systemClock,
  hooks: createHooks(),
  jobs,
  perApp,
  messenger: createMessenger({ config, db, log, clock: systemClock, jobs }),
};
// Only the embedded database needs it: `npm run admin` tells a running server apart from a free folder.
const removePid =
  config.database.kind === 'pglite' && config.database.dataDir ? writeServerPid(config.dataDir) : null;
const app = await buildApp(deps);
try {
  await seedCatalogue(deps);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
await app.listen({ port: config.port, host: config.host });
// Start-up's garbage goes back to the system just after the server answers, not before: the collection takes
// a few hundred ms of CPU (lib/startup-garbage.ts) that no request needs to wait for at start.
setTimeout(releaseStartupGarbage, STARTUP_GARBAGE_DELAY_MS).unref();
log.info(
  { url: config.publicUrl, database: config.database.kind, ms: Math.round(performance.now() - started) },
  'server ready',
);
// Background jobs start after listen, so a fresh start answers first: pg-boss installs or migrates its schema
// (pgboss), creates its queues, registers the cron sweeps and starts this instance's workers.
jobs.work(deps).then(
  () => log.info({ ms: Math.round(performance.now() - started) }, 'jobs ready'),
  (err) => log.error({ err }, 'the job system did not start; background jobs do not run in this instance'),
);

// Rate-limit windows older than a day count nothing any more; drop them hourly so the table stays small.
const DAY_MS = 24 * 60 * 60 * 1000;
const pruneTimer = setInterval(
  () => {
    pruneCounters(db, new Date(Date.now() - DAY_MS)).catch((err) =>
      log.warn({ err }, 'pruning rate counters failed'),
    );
  },
  60 * 60 * 1000,
);
pruneTimer.unref();

let isStopping = false;
async function shutdown(signal: string) {
  if (isStopping) return;
  isStopping = true;
  log.info({ signal }, 'shutting down');
  // A stuck connection must not keep the process alive forever.
  const timer = setTimeout(() => process.exit(1), 10_000);
  timer.unref();
  clearInterval(pruneTimer);
  try {
    await app.close();
    // A job in flight may finish (a few seconds); then it is failed, and so retried by a live instance.
    await jobs.stop(5000);
    await closeDatabase(db);
    removePid?.();
    process.exit(0);
  } catch (err) {
    log.error({ err }, 'error while shutting down');
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
