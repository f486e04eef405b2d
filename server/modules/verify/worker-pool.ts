// A few worker threads run the verifier so that a large or hostile file never stalls the server's event loop:
// the verifier checks its own time limit, and a worker that still overruns by a margin is terminated and
// replaced. With 0 workers (VERIFY_WORKERS=0) jobs run in process, still under the verifier's time limit.
//
// Memory (issue 16): a worker's heap has a ceiling (resourceLimits): a file that needs more kills only its
// worker, and the job answers 'unreadable'. A worker is retired after maxJobsPerWorker files, or as soon as
// its heap after a job is above half the ceiling, so what V8 keeps committed after a hostile file (a grown
// heap, fragmented pages) goes back with the thread instead of staying for the life of the server; a worker
// idle for idleMs ends too, so an idle server returns to about its start-up size.
import { Worker } from 'node:worker_threads';
import { VerifyErrorCode } from '../../pdf/verify/errors.ts';
import type { RevocationAnswer, RevocationHook } from '../../pdf/verify/types.ts';
import { runVerifyJob, type VerifyJob, type VerifyJobResult } from './verify-job.ts';

/** Beyond the verifier's own limit, how long a worker may take before it is killed. */
const HARD_MARGIN_MS = 3000;
/** Jobs waiting per worker before new ones are refused as busy. */
const QUEUE_PER_WORKER = 8;

/** A worker asks the main thread about one certificate's revocation (see verify-worker.ts). */
type RevocationQuestion = {
  type: 'revocation';
  qid: number;
  cert: { der: Uint8Array; serialHex: string };
  issuer: { der: Uint8Array };
};

type Pending = { id: number; job: VerifyJob; resolve: (r: VerifyJobResult) => void };
type Slot = {
  worker: Worker;
  current: Pending | null;
  timer: NodeJS.Timeout | null;
  /** Jobs this worker has finished. */
  jobs: number;
  /** Whether the thread started (an error before that means workers cannot run here at all). */
  isOnline: boolean;
  /** Ends the worker once it has had nothing to do for idleMs. */
  idleTimer: NodeJS.Timeout | null;
};

/** A job's answer from a worker, with the worker's heap in use after it (MB). */
type JobAnswer = { id: number; result: VerifyJobResult; heapUsedMb?: number };

type VerifyPoolOptions = {
  /** Old-generation heap ceiling of one worker, MB (VERIFY_WORKER_HEAP_MB). */
  heapLimitMb?: number;
  /** Files one worker verifies before it is retired (VERIFY_WORKER_MAX_JOBS). */
  maxJobsPerWorker?: number;
  /** A worker idle this long is ended; the next file starts a fresh one (default 60 s). */
  idleMs?: number;
};

/** The answer of a job whose worker died under it (heap ceiling reached, or a crash). */
const WORKER_DIED: VerifyJobResult = {
  ok: false,
  code: VerifyErrorCode.Unreadable,
  message: 'the file needs more memory than a verification may use',
};

export class PoolBusyError extends Error {
  override name = 'PoolBusyError';
}

export class VerifyPool {
  private readonly size: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private isClosed = false;
  /** Set when workers cannot start here (e.g. no TypeScript support in workers): jobs then run in process. */
  private isInProcess: boolean;
  /** Answers revocation questions in this thread (workers ask by message: the database lives here). */
  private readonly revocation: RevocationHook | undefined;
  private readonly heapLimitMb: number;
  private readonly maxJobsPerWorker: number;
  private readonly idleMs: number;
  /** Workers started so far (retired and replaced ones included). */
  private spawned = 0;

  constructor(size: number, revocation?: RevocationHook, options: VerifyPoolOptions = {}) {
    this.size = size;
    this.isInProcess = size === 0;
    this.revocation = revocation;
    this.heapLimitMb = options.heapLimitMb ?? 256;
    this.maxJobsPerWorker = options.maxJobsPerWorker ?? 200;
    this.idleMs = options.idleMs ?? 60_000;
  }

  /** Worker threads alive now. */
  get liveWorkers(): number {
    return this.slots.length;
  }

  /** How many worker threads have been started in all (tests and benchmarks watch retirement with it). */
  get workersStarted(): number {
    return this.spawned;
  }

  /** Whether jobs run in worker threads (false after a fallback to in-process, or with size 0). */
  get usesWorkers(): boolean {
    return !this.isInProcess;
  }

  /** Runs a job; rejects with PoolBusyError when too many are waiting. */
  run(job: VerifyJob): Promise<VerifyJobResult> {
    if (this.isInProcess) return runVerifyJob(job, this.revocation);
    if (this.queue.length >= this.size * QUEUE_PER_WORKER) return Promise.reject(new PoolBusyError('busy'));
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, job, resolve });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.isClosed = true;
    for (const p of this.queue.splice(0))
      p.resolve({ ok: false, code: VerifyErrorCode.Timeout, message: 'the server is shutting down' });
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private dispatch(): void {
    if (this.isClosed) return;
    while (this.slots.length < this.size && this.queue.length > this.slots.filter((s) => !s.current).length)
      this.slots.push(this.spawn());
    for (const slot of this.slots) {
      if (slot.current || this.queue.length === 0) continue;
      const p = this.queue.shift()!;
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
      slot.current = p;
      slot.timer = setTimeout(() => this.kill(slot), p.job.timeLimitMs + HARD_MARGIN_MS);
      slot.worker.postMessage({ id: p.id, job: p.job, hasRevocation: !!this.revocation });
    }
  }

  private spawn(): Slot {
    const worker = new Worker(new URL('./verify-worker.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.heapLimitMb },
    });
    this.spawned++;
    worker.unref();
    const slot: Slot = { worker, current: null, timer: null, jobs: 0, isOnline: false, idleTimer: null };
    worker.once('online', () => {
      slot.isOnline = true;
    });
    worker.on('message', (msg: JobAnswer | RevocationQuestion) => {
      if ('type' in msg) {
        void this.answer(worker, msg);
        return;
      }
      const p = slot.current;
      if (!p || p.id !== msg.id) return;
      slot.jobs++;
      const isWorn =
        slot.jobs >= this.maxJobsPerWorker ||
        (msg.heapUsedMb !== undefined && msg.heapUsedMb > this.heapLimitMb / 2);
      if (isWorn) this.retire(slot, msg.result);
      else this.finish(slot, msg.result);
    });
    worker.on('error', (err) => {
      void err;
      const p = slot.current;
      const wasHere = this.slots.includes(slot);
      this.remove(slot);
      if (slot.isOnline) {
        // A running worker died (its heap ceiling, most likely): only its job fails; a fresh one takes over.
        if (wasHere) p?.resolve(WORKER_DIED);
        this.dispatch();
        return;
      }
      // A worker that cannot even start: run this job (and all later ones) in process instead.
      if (p) {
        this.isInProcess = true;
        void runVerifyJob(p.job, this.revocation).then(p.resolve);
      }
      for (const q of this.queue.splice(0)) void runVerifyJob(q.job, this.revocation).then(q.resolve);
    });
    worker.on('exit', () => {
      // An exit nobody asked for (not kill or retire, which remove the slot first) fails the job it held.
      if (!this.slots.includes(slot)) return;
      const p = slot.current;
      this.remove(slot);
      p?.resolve(WORKER_DIED);
      this.dispatch();
    });
    return slot;
  }

  /** Answers the job, then ends the worker: the next job starts a fresh one with an empty heap. */
  private retire(slot: Slot, result: VerifyJobResult): void {
    const p = slot.current;
    this.remove(slot);
    void slot.worker.terminate();
    p?.resolve(result);
    this.dispatch();
  }

  /** A worker's revocation question, answered here; a failure answers 'unknown' (the verifier's default). */
  private async answer(worker: Worker, q: RevocationQuestion): Promise<void> {
    let answer: RevocationAnswer = { status: 'unknown', source: 'error' };
    try {
      if (this.revocation) answer = await this.revocation(q.cert, q.issuer);
    } catch {
      // Expected by design: a revocation lookup that fails is 'unknown' from source 'error' (the verdict says
      // so); the verifier never reads a failed lookup as 'good'.
    }
    try {
      worker.postMessage({ type: 'revocationAnswer', qid: q.qid, answer });
    } catch {
      // the worker was terminated meanwhile
    }
  }

  private finish(slot: Slot, result: VerifyJobResult): void {
    const p = slot.current;
    if (slot.timer) clearTimeout(slot.timer);
    slot.current = null;
    slot.timer = null;
    p?.resolve(result);
    this.dispatch();
    // Idle from now on: an idle server gives the workers' memory back.
    if (!slot.current && this.slots.includes(slot)) {
      slot.idleTimer = setTimeout(() => {
        if (slot.current || !this.slots.includes(slot)) return;
        this.remove(slot);
        void slot.worker.terminate();
      }, this.idleMs);
      slot.idleTimer.unref();
    }
  }

  private kill(slot: Slot): void {
    const p = slot.current;
    this.remove(slot);
    void slot.worker.terminate();
    p?.resolve({
      ok: false,
      code: VerifyErrorCode.Timeout,
      message: 'verification took longer than the time limit',
    });
    this.dispatch();
  }

  private remove(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.current = null;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
  }
}
