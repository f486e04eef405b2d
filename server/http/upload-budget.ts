import { Transform } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Code } from '#contract/codes.ts';
import type { AppDeps } from '../deps.ts';
import { definePerAppSlot } from '../lib/per-app.ts';
import { AppError } from './app-error.ts';
import type { Text } from './texts.ts';

/**
 * The memory uploads may hold at once (issue 23, L6): every upload the server reads into memory (the
 * workspace's multipart uploads through registerUpload, the integrator API's `POST /open/v1/documents`)
 * is admitted here first, before its body is read. A caller (an account, an API key) may have at most
 * `perCaller` uploads in flight (beyond: HTTP 429, code 1005); the bodies in flight in the whole process may
 * hold at most `totalBytes` (beyond: HTTP 503, code 1005), both with Retry-After. A body's share is its
 * Content-Length (at most what the route reads, `maxBytes`); without one (chunked) its bytes are counted
 * as they arrive and the upload is refused when the budget would be exceeded. The share is released when
 * the exchange ends, however it ends (answered, failed, or the connection closed mid-upload).
 */

/** Seconds a refused upload is told to wait (Retry-After, and `data.retryAfterSeconds`). */
const UPLOAD_RETRY_AFTER_SECONDS = 5;

const UPLOAD_TEXTS = {
  callerBusy: {
    en: 'too many uploads from this account at once; please try again in a few seconds',
    zh: '该账号同时上传的文件过多，请稍后再试',
  },
  serverBusy: {
    en: 'the server is receiving too many uploads right now; please try again in a few seconds',
    zh: '服务器正在接收的上传过多，请稍后再试',
  },
} satisfies Record<string, Text>;

type UploadBudgetState = {
  /** Bytes reserved by the uploads in flight. */
  heldBytes: number;
  /** Uploads in flight. */
  uploads: number;
  /** The most bytes ever reserved at once. */
  peakBytes: number;
};

/** One admitted upload's share of the budget. */
export type UploadTicket = {
  /** Counts `bytes` more of a body sent without Content-Length; throws the 503 refusal beyond the budget. */
  count(bytes: number): void;
  /** Gives the share back (idempotent). */
  release(): void;
};

const refusal = (status: 429 | 503) =>
  new AppError(Code.RateLimited, status === 429 ? UPLOAD_TEXTS.callerBusy : UPLOAD_TEXTS.serverBusy, {
    status,
    data: { retryAfterSeconds: UPLOAD_RETRY_AFTER_SECONDS },
  });

class UploadBudget {
  readonly totalBytes: number;
  readonly perCaller: number;
  #held = 0;
  #peak = 0;
  #uploads = 0;
  readonly #byCaller = new Map<string, number>();

  constructor(settings: { totalBytes: number; perCaller: number }) {
    this.totalBytes = settings.totalBytes;
    this.perCaller = settings.perCaller;
  }

  get state(): UploadBudgetState {
    return { heldBytes: this.#held, uploads: this.#uploads, peakBytes: this.#peak };
  }

  /**
   * Admits an upload of `caller` whose body is `declaredBytes` long (undefined: not declared, counted as it
   * arrives, at most `maxBytes`), or throws the refusal: 429 when the caller has `perCaller` uploads in
   * flight, 503 when the declared bytes do not fit in what is left of the budget.
   */
  admit(caller: string, declaredBytes: number | undefined, maxBytes: number): UploadTicket {
    const running = this.#byCaller.get(caller) ?? 0;
    if (running >= this.perCaller) throw refusal(429);
    let share = Math.min(declaredBytes ?? 0, maxBytes);
    if (this.#held + share > this.totalBytes) throw refusal(503);
    this.#byCaller.set(caller, running + 1);
    this.#uploads += 1;
    this.#take(share);
    const counted = declaredBytes === undefined;
    let released = false;
    return {
      count: (bytes) => {
        if (!counted || released) return;
        const more = Math.min(bytes, maxBytes - share);
        if (more <= 0) return;
        if (this.#held + more > this.totalBytes) throw refusal(503);
        share += more;
        this.#take(more);
      },
      release: () => {
        if (released) return;
        released = true;
        this.#held -= share;
        this.#uploads -= 1;
        const left = (this.#byCaller.get(caller) ?? 1) - 1;
        if (left > 0) this.#byCaller.set(caller, left);
        else this.#byCaller.delete(caller);
      },
    };
  }

  #take(bytes: number): void {
    this.#held += bytes;
    if (this.#held > this.#peak) this.#peak = this.#held;
  }
}

const UPLOAD_BUDGET = definePerAppSlot<UploadBudget>('http.uploadBudget');

/** The app's upload budget (UPLOAD_BUDGET_MB, UPLOADS_PER_CALLER). */
export const uploadBudgetOf = (deps: Pick<AppDeps, 'perApp' | 'config'>): UploadBudget =>
  deps.perApp.get(
    UPLOAD_BUDGET,
    () =>
      new UploadBudget({
        totalBytes: deps.config.uploadBudgetBytes,
        perCaller: deps.config.uploadsPerCaller,
      }),
  );

/** The request's Content-Length, or undefined when it has none (chunked) or a malformed one. */
function declaredLength(req: FastifyRequest): number | undefined {
  const header = req.headers['content-length'];
  if (header === undefined || !/^\d+$/.test(header)) return undefined;
  return Number(header);
}

/**
 * Admits the request's upload for `caller` (`key:<id>`, `account:<id>`) before its body is read, or throws
 * the refusal (with Retry-After set on the reply). The share is released when the exchange ends: the
 * response closes (sent, or the connection dropped), whichever way it ends.
 */
export function admitUpload(
  deps: Pick<AppDeps, 'perApp' | 'config'>,
  req: FastifyRequest,
  reply: FastifyReply,
  caller: string,
  maxBytes: number,
): UploadTicket {
  let ticket: UploadTicket;
  try {
    ticket = uploadBudgetOf(deps).admit(caller, declaredLength(req), maxBytes);
  } catch (err) {
    reply.header('retry-after', String(UPLOAD_RETRY_AFTER_SECONDS));
    throw err;
  }
  // The response's 'close' comes once the answer is sent and when the connection drops before it (also
  // under app.inject); the routes' onResponse and onRequestAbort hooks (releaseUpload) release it too.
  reply.raw.once('close', ticket.release);
  req.uploadTicket = ticket;
  return ticket;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The upload's share of the upload budget (admitUpload), released when the exchange ends. */
    uploadTicket?: UploadTicket;
  }
}

/** For a route's onResponse and onRequestAbort hooks: releases the request's upload share, if any. */
export async function releaseUpload(req: FastifyRequest): Promise<void> {
  req.uploadTicket?.release();
}

/**
 * For a route's preParsing hook: a body sent without Content-Length passes through a counter that refuses
 * it (503) once it would exceed the budget; a declared one is already reserved whole.
 */
export async function countUploadBody(
  req: FastifyRequest,
  _reply: FastifyReply,
  payload: NodeJS.ReadableStream,
): Promise<NodeJS.ReadableStream> {
  const ticket = req.uploadTicket;
  if (!ticket || declaredLength(req) !== undefined) return payload;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        ticket.count(chunk.length);
      } catch (err) {
        done(err as Error);
        return;
      }
      done(null, chunk);
    },
  });
  payload.on('error', (err) => counter.destroy(err));
  return payload.pipe(counter);
}
