// The server: config (early-start.ts) -> database (migrations) -> storage -> app -> listen. Loaded by
// server/main.ts after early-start.ts.
import pino from 'pino';
import { buildApp, createHooks, createJobs } from './app.ts';
import { PerApp } from './lib/per-app.ts';
import { closeDatabase, openDatabase } from './db/database.ts';
import { type AppDeps, systemClock } from './deps.ts';
import { config, templateCopy } from './early-start.ts';
import { pruneCounters } from './db/rate-counter.ts';
import { loggerOptions } from './lib/logger.ts';
import { writeServerPid } from './lib/server-pid.ts';
import { releaseGarbageWhenIdle } from './lib/idle-garbage.ts';
import { collectGarbage, releaseStartupGarbage } from './lib/startup-garbage.ts';
import { createMessenger } from './messaging/create-messenger.ts';
import { seedCatalogue } from './modules/package/index.ts';
import { prepareCaFiles } from './modules/pki/index.ts';
import { openBlobStore } from './storage/open-blob-store.ts';

/**
 * How long after listen the job system starts. pg-boss's code takes a quarter of a second to load and its
 * start a few hundred milliseconds of the embedded database's one connection: the first requests after a
 * start (a load balancer's health check, the first page) are answered before. A request that enqueues a job
 * meanwhile starts it at once (Jobs.ready).
 */
const JOBS_START_DELAY_MS = 1000;

const log = pino(loggerOptions(config));
log.info({ node: process.version, env: config.nodeEnv }, `starting on Node ${process.version}`);
// Without ESIGN_MASTER_KEY, the PKI's start warns about the development key (server/pki/master-key.ts).

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
  templateCopy,
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
// The garbage of a busy spell goes back to the system once requests have paused (lib/idle-garbage.ts).
const idleGarbage = releaseGarbageWhenIdle({
  collect: collectGarbage,
  onCollect: (fact) => log.debug(fact, 'idle: garbage of a busy spell released'),
});
app.server.on('request', (_req, res) => idleGarbage.track(res));
await app.listen({ port: config.port, host: config.host });
log.info(
  { url: config.publicUrl, database: config.database.kind, ms: Math.round(performance.now() - started) },
  'server ready',
);
// Background jobs start a moment after listen, so a start answers first: pg-boss checks (or migrates) its
// schema (pgboss), creates its queues, registers the cron sweeps and starts this instance's workers. Then
// start-up's garbage goes back to the system: that collection takes a few hundred ms of CPU
// (lib/startup-garbage.ts) that no early request needs to wait for either; from then on, a busy spell's.
const jobsTimer = setTimeout(() => {
  jobs
    .work(deps)
    .then(
      () => log.info({ ms: Math.round(performance.now() - started) }, 'jobs ready'),
      (err) =>
        log.error({ err }, 'the job system did not start; background jobs do not run in this instance'),
    )
    .finally(() => {
      releaseStartupGarbage();
      idleGarbage.start();
    });
}, JOBS_START_DELAY_MS);

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
  clearTimeout(jobsTimer);
  idleGarbage.stop();
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
