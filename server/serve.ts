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
// The CA's files beside the database's start: at a first start both take about a second (key generation
// on the thread pool, initdb or the template copy on this thread), side by side rather than in a row.
const caReady = prepareCaFiles({ config, log, clock: systemClock });
caReady.catch(() => {}); // awaited below, after the database; no unhandled rejection meanwhile
const db = await openDatabase(config, {
  openPool: true,
  onSyncError: (err) =>
    log.warn({ err }, 'telling other instances about writes failed; their caches expire by CACHE_TTL_MS'),
});
await caReady;
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
  perApp: new PerApp(),
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
releaseStartupGarbage();
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
