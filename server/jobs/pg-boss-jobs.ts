// The job system: pg-boss over the app's own database, PostgreSQL (pg-boss's own small pool on
// DATABASE_URL) or the embedded PGlite (pg-boss's PGlite adapter on the app's one connection).
import type { ConstructorOptions, PgBoss, Queue, TestClock } from 'pg-boss';
import type { Logger } from 'pino';
import { type Db, rawOf } from '../db/database.ts';
import { JOBS_SCHEMA } from '../db/job-schema.ts';
import type { Job, JobDefinition, JobOptions, JobQueue } from './queue.ts';

// A job's defaults unless its definition says otherwise: three retries with doubling delays from 30 s; an
// attempt that runs (or sits claimed by a dead instance) longer than 5 minutes is failed and retried.
const DEFAULT_RETRY_LIMIT = 3;
const DEFAULT_RETRY_DELAY_SECONDS = 30;
const DEFAULT_EXPIRE_SECONDS = 5 * 60;
// A worker refreshes its claim every half of `heartbeatSeconds` (30 s by default, JOBS_HEARTBEAT_SECONDS); a
// claim not refreshed for that long (the instance died) is failed by the supervisor of any live instance
// (a pass every `superviseSeconds`, JOBS_SUPERVISE_SECONDS) and the job runs again elsewhere.
const DEFAULT_HEARTBEAT_SECONDS = 30;
const DEFAULT_SUPERVISE_SECONDS = 30;
// At most this many due jobs in one runDue pass over all queues (a job that keeps failing at once stops).
const RUN_DUE_MAX_JOBS = 1000;

// biome-ignore lint/suspicious/noExplicitAny: definitions of different payloads live in one list
export type AnyJobDefinition<Ctx> = JobDefinition<any, Ctx>;

type JobsSettings = {
  /** Seconds between a worker's polls of its queue. */
  pollSeconds: number;
  /** A running job not refreshed for this long (its instance died) is failed and retried (>= 10). */
  heartbeatSeconds?: number;
  /** Seconds between the supervisor's passes (stale heartbeats, expiry, retention). */
  superviseSeconds?: number;
  /**
   * Tests: pg-boss runs on a clock of its own that `runDue` sets to the app's (fake) clock, so retry
   * delays and `startAfter` follow it; no timer of pg-boss fires (no polling, no supervisor, no cron).
   */
  manualClock?: boolean;
};

/**
 * The app's jobs: `send` (the JobQueue every module sees), and for the composition `work` (workers and
 * cron schedules, after listen), `runDue` (tests, scripts) and `stop`. pg-boss starts on first need: a
 * send, `work` or `runDue` installs or migrates its schema (`pgboss`) and creates one queue per definition.
 * pg-boss's code is loaded then too, not at import: it is off the path to a server's "ready" (serve.ts calls
 * `work` after listen), and loading it costs about a quarter of a second.
 */
export class Jobs<Ctx> implements JobQueue {
  /** Set by #start (after `ready()` resolves it is there). */
  #boss: PgBoss | null = null;
  readonly #definitions: readonly AnyJobDefinition<Ctx>[];
  readonly #log: Logger;
  readonly #settings: JobsSettings;
  readonly #engine: ReturnType<typeof rawOf>['engine'];
  #clock: TestClock | null = null;
  #ready: Promise<void> | null = null;
  #isStopped = false;

  constructor(
    deps: { db: Db; log: Logger },
    definitions: readonly AnyJobDefinition<Ctx>[],
    settings: JobsSettings,
  ) {
    this.#definitions = definitions;
    this.#log = deps.log;
    this.#settings = settings;
    this.#engine = rawOf(deps.db).engine;
  }

  /** Starts pg-boss (schema, queues) once; sends and workers wait for it. */
  ready(): Promise<void> {
    this.#ready ??= this.#start();
    return this.#ready;
  }

  /** pg-boss, once `ready()` has resolved. */
  get #started(): PgBoss {
    if (!this.#boss) throw new Error('the job system is not started');
    return this.#boss;
  }

  async #start(): Promise<void> {
    const started = performance.now();
    const { PgBoss, TestClock, fromPglite } = await import('pg-boss');
    const settings = this.#settings;
    const engine = this.#engine;
    this.#clock = settings.manualClock ? new TestClock(Date.now()) : null;
    const options: ConstructorOptions = {
      schema: JOBS_SCHEMA,
      supervise: !settings.manualClock,
      superviseIntervalSeconds: settings.superviseSeconds ?? DEFAULT_SUPERVISE_SECONDS,
      monitorIntervalSeconds: settings.superviseSeconds ?? DEFAULT_SUPERVISE_SECONDS,
      // Cron schedules are registered by `work` only, in instances that run workers.
      schedule: !settings.manualClock,
      instanceName: 'esign',
      registerInstance: !settings.manualClock,
      openTelemetry: { enabled: false },
      ...(this.#clock ? { clock: this.#clock } : {}),
      ...(engine.kind === 'pglite'
        ? { db: fromPglite(engine.client), backend: 'pglite' as const }
        : { connectionString: engine.url, max: 3, application_name: 'esign-jobs' }),
    };
    const boss = new PgBoss(options);
    boss.on('error', (err) => this.#log.error({ err }, 'job system error'));
    boss.on('warning', (w) => this.#log.warn({ data: w.data }, `job system: ${w.message}`));
    this.#boss = boss;
    await boss.start();
    for (const def of this.#definitions) {
      const options = queueOptions(def, this.#settings.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS);
      const existing = await boss.getQueue(def.name);
      if (existing) await boss.updateQueue(def.name, options);
      else
        await boss.createQueue(def.name, {
          ...options,
          policy: isSingleton(def) ? 'short' : 'standard',
        });
    }
    this.#log.debug({ ms: Math.round(performance.now() - started) }, 'job system started');
  }

  async send<T extends object>(name: string, data: T, options: JobOptions = {}): Promise<string | null> {
    const def = this.#definitions.find((d) => d.name === name);
    if (!def) throw new Error(`no job is defined as ${name}`);
    if (options.singletonKey && !isSingleton(def))
      throw new Error(`job ${name} is not defined as a singleton: a singletonKey would not be kept unique`);
    await this.ready();
    return this.#started.send(name, data, {
      ...(options.startAfter ? { startAfter: options.startAfter } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.retryLimit !== undefined ? { retryLimit: options.retryLimit } : {}),
      ...(options.retryDelaySeconds !== undefined ? { retryDelay: options.retryDelaySeconds } : {}),
      ...(options.retryBackoff !== undefined ? { retryBackoff: options.retryBackoff } : {}),
    });
  }

  /**
   * Starts this instance's workers (one per queue, polling every `pollSeconds`) and registers the cron
   * schedules (pg-boss sends each due cron job once across instances). serve.ts calls it after listen.
   */
  async work(ctx: Ctx): Promise<void> {
    await this.ready();
    for (const def of this.#definitions) {
      // Stopped meanwhile (a SIGTERM just after start): pg-boss refuses workers once stopped.
      if (this.#isStopped) return;
      await this.#started.work<unknown>(
        def.name,
        { pollingIntervalSeconds: this.#settings.pollSeconds, batchSize: 1 },
        async ([job]) => {
          await def.handler(asJob(job), ctx);
        },
      );
      if (def.cron) await this.#started.schedule(def.name, def.cron, {}, { tz: 'UTC' });
      else await this.#started.unschedule(def.name).catch(() => {});
    }
  }

  /**
   * Runs every job that is due now, in this process, until none is (tests; scripts). Cron jobs count as
   * due once per call. With the manual clock, "now" is `now` (the app's clock), for pg-boss too.
   * Answers the number of jobs run (failed attempts included).
   */
  async runDue(ctx: Ctx, now?: Date): Promise<number> {
    await this.ready();
    if (this.#clock && now) await this.#clock.setTime(now);
    for (const def of this.#definitions) {
      if (def.cron) await this.#started.send(def.name, {}, { singletonKey: 'cron' });
    }
    let ran = 0;
    for (let isIdle = false; !isIdle && ran < RUN_DUE_MAX_JOBS; ) {
      isIdle = true;
      for (const def of this.#definitions) {
        const jobs = await this.#started.fetch<unknown>(def.name, { batchSize: 10 });
        for (const job of jobs) {
          isIdle = false;
          ran += 1;
          try {
            await def.handler(asJob(job), ctx);
            await this.#started.complete(def.name, { id: job.id, retryCount: job.retryCount });
          } catch (err) {
            this.#log.warn({ err, job: def.name, id: job.id }, 'job failed');
            await this.#started.fail(def.name, { id: job.id, retryCount: job.retryCount }, failureOf(err));
          }
        }
      }
    }
    return ran;
  }

  /** Stops workers: a job in flight gets `timeoutMs` to finish, then it is failed and so retried later. */
  async stop(timeoutMs = 8000): Promise<void> {
    if (this.#isStopped || !this.#ready) return;
    this.#isStopped = true;
    await this.#ready.catch(() => {});
    // A start that failed before pg-boss existed (its code did not load) leaves nothing to stop.
    await this.#boss?.stop({ graceful: true, timeout: timeoutMs, close: true });
  }
}

/** Sweeps (cron) are singletons too: a sweep waiting already does what a second one would. */
const isSingleton = (def: AnyJobDefinition<unknown>) => Boolean(def.singleton || def.cron);

function queueOptions(
  def: AnyJobDefinition<unknown>,
  heartbeatSeconds: number,
): Omit<Queue, 'name' | 'policy'> {
  return {
    retryLimit: def.retryLimit ?? DEFAULT_RETRY_LIMIT,
    retryDelay: def.retryDelaySeconds ?? DEFAULT_RETRY_DELAY_SECONDS,
    retryBackoff: def.retryBackoff ?? true,
    expireInSeconds: DEFAULT_EXPIRE_SECONDS,
    heartbeatSeconds,
  };
}

function asJob(job: { id: string; name: string; data: unknown; retryCount: number }): Job<never> {
  return { id: job.id, name: job.name, data: job.data as never, retryCount: job.retryCount };
}

function failureOf(err: unknown): object {
  return { message: err instanceof Error ? err.message : String(err) };
}
