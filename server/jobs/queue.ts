// What the rest of the server may ask of the job system: durable jobs in the database (pg-boss over
// PostgreSQL or the embedded PGlite). A request enqueues; a worker in every instance takes jobs; each job
// runs once and is retried after a failure or a crash. The implementation lives beside this file.

/** How one job is sent. Options not given come from the job's definition. */
export type JobOptions = {
  /** Not before this moment. */
  startAfter?: Date;
  /**
   * At most one waiting job with this key per job name: a second send answers null. Only for jobs defined
   * with `singleton: true` (a send with a key to another job is refused).
   */
  singletonKey?: string;
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** Double the delay after each failure. */
  retryBackoff?: boolean;
};

/** A job as its handler sees it. */
export type Job<T> = { id: string; name: string; data: T; retryCount: number };

/** What a module declares: a job name, its handler and its default retries; `cron` makes it a sweep. */
export type JobDefinition<T, Ctx> = {
  name: string;
  handler(job: Job<T>, ctx: Ctx): Promise<void>;
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** A cron expression (UTC): the job is scheduled once across all instances (and is a singleton). */
  cron?: string;
  /**
   * At most one waiting job per `singletonKey` (pg-boss policy 'short'; without a key, one waiting job in
   * all); running ones do not count. Fixed when the queue is first created.
   */
  singleton?: boolean;
};

export interface JobQueue {
  /** Enqueues a job (inside the caller's request); answers its id, or null for a duplicate singleton. */
  send<T extends object>(name: string, data: T, options?: JobOptions): Promise<string | null>;
}
