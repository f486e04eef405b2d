import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { WEBHOOK_HEADERS } from '#contract/calls/webhook.ts';
import type { AppDeps } from '../../deps.ts';
import { RefusedAddressError, guardedLookup, refusedRange } from './address-guard.ts';
import * as q from './queries.ts';
import { openSecret } from './secret.ts';
import { signatureOf } from './signature.ts';

/** How long one POST may take. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** How long a failing delivery is retried after its event. */
export const RETRY_WINDOW_MS = 24 * 3_600_000;
/** The first retry's delay; each further one doubles it, up to MAX_DELAY_MS. */
const FIRST_DELAY_MS = 30_000;
const MAX_DELAY_MS = 2 * 3_600_000;
/**
 * While one attempt runs, its message is not due for anyone else: three times the time-out, so that an
 * attempt that is still posting and recording is never overtaken; an attempt lost with its instance (killed)
 * is due again after it, and the job system's retry of that job (30 s later) or the sweep makes it.
 */
const LEASE_MS = 30_000;

/** The delay before retry number `failures` (1 = after the first failure): 30 s, 1 min, 2 min, ... 2 h. */
const retryDelayMs = (failures: number): number =>
  Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, failures - 1));

type Outcome = { ok: boolean; responseCode: number | null; error: string | null; durationMs: number };

/**
 * One POST to a webhook URL: its status code. No redirect is followed; unless local receivers are allowed,
 * the URL must be https and the connection goes only to a checked public address (address-guard.ts).
 */
function postOnce(raw: string, headers: Record<string, string>, body: string, allowLocal: boolean) {
  return new Promise<number>((resolve, reject) => {
    const url = new URL(raw);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!allowLocal) {
      if (url.protocol !== 'https:') return reject(new RefusedAddressError({ reason: 'https-only' }));
      // An address in the URL is connected to without a lookup: check it here.
      const range = isIP(host) ? refusedRange(host) : null;
      if (range) return reject(new RefusedAddressError({ reason: 'address', host, address: host, range }));
    }
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        ...(allowLocal ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** One signed POST of a message's body to its endpoint (10 s time-out, redirects not followed). */
async function post(deps: AppDeps, endpoint: q.EndpointRecord, message: q.MessageRecord): Promise<Outcome> {
  const secret = await openSecret(deps, endpoint.id, endpoint.secretSealed);
  const timestamp = String(Math.floor(deps.clock.now().getTime() / 1000));
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const status = await postOnce(
      endpoint.url,
      {
        'content-type': 'application/json',
        'user-agent': 'esign-webhooks/1',
        [WEBHOOK_HEADERS.timestamp]: timestamp,
        [WEBHOOK_HEADERS.signature]: signatureOf(secret, timestamp, message.body),
        [WEBHOOK_HEADERS.eventId]: message.eventId,
      },
      message.body,
      deps.config.webhooks.allowLocal,
    );
    const ok = status >= 200 && status < 300;
    return { ok, responseCode: status, error: ok ? null : `HTTP ${status}`, durationMs: took() };
  } catch (err) {
    // The receiver could not be reached, was refused (address-guard.ts) or did not answer in time: the
    // attempt failed, nothing else.
    const e = err as Error & { code?: string; cause?: { code?: string; message?: string } };
    const error =
      e.name === 'AbortError' || e.name === 'TimeoutError'
        ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`
        : e instanceof RefusedAddressError
          ? e.message
          : (e.code ?? e.cause?.code ?? e.message);
    return { ok: false, responseCode: null, error: String(error).slice(0, 500), durationMs: took() };
  }
}

/** What happens to a pending message after a failed scheduled attempt: the next retry, or given up. */
function afterFailure(message: q.MessageRecord, failures: number, now: Date) {
  const until = new Date(String(message.retryUntil)).getTime();
  if (now.getTime() >= until) return { state: 'failed' as const, nextAttemptAt: null };
  const next = Math.min(now.getTime() + retryDelayMs(failures), until);
  return { state: 'pending' as const, nextAttemptAt: new Date(next) };
}

/**
 * The scheduled attempt of one message, when it is due (the job `webhook.deliver`, and the sweep of due
 * messages): claims it, posts it, logs the attempt, and sets what follows (delivered, the next retry with
 * exponential back-off, or failed after 24 hours). Answers the message's state afterwards, or null when it
 * was not due (another worker has it, or it is done).
 */
export async function deliverMessage(deps: AppDeps, messageId: string): Promise<q.MessageRecord | null> {
  const message = await q.claimDue(deps.db, messageId, deps.clock.now(), LEASE_MS);
  if (!message) return null;
  const endpoint = await q.endpointById(deps.db, message.endpointId);
  if (!endpoint) return null;
  const at = deps.clock.now();
  const outcome = await post(deps, endpoint, message);
  const next = outcome.ok
    ? { state: 'delivered' as const, nextAttemptAt: null }
    : afterFailure(message, message.attempts + 1, deps.clock.now());
  await deps.db.transaction((tx) =>
    q.recordAttempt(tx, { id: randomUUID(), messageId, at, ...outcome, manual: false }, next),
  );
  return (await q.findMessage(deps.db, messageId)) ?? null;
}

/**
 * A redelivery someone asked for (screen, API, test event): the same event id and body, signed now. A
 * success marks the message delivered; a failure leaves its schedule as it was.
 */
export async function redeliverNow(deps: AppDeps, message: q.MessageRecord): Promise<void> {
  const endpoint = await q.endpointById(deps.db, message.endpointId);
  if (!endpoint) return;
  const at = deps.clock.now();
  const outcome = await post(deps, endpoint, message);
  const next = outcome.ok ? { state: 'delivered' as const, nextAttemptAt: null } : null;
  await deps.db.transaction((tx) =>
    q.recordAttempt(tx, { id: randomUUID(), messageId: message.id, at, ...outcome, manual: true }, next),
  );
}

/** The job that makes one scheduled attempt of a message (data: its id). */
export const DELIVER_JOB = 'webhook.deliver';

/** Queues the next attempt of a message at `at` (the job system runs it then, on any instance). */
export async function scheduleAttempt(deps: AppDeps, messageId: string, at?: Date): Promise<void> {
  await deps.jobs.send(DELIVER_JOB, { messageId }, at ? { startAfter: at } : {});
}

/** One scheduled attempt, then the next one queued while the message is still pending. */
export async function attemptAndSchedule(deps: AppDeps, messageId: string): Promise<void> {
  const after = await deliverMessage(deps, messageId);
  if (after?.state === 'pending' && after.nextAttemptAt)
    await scheduleAttempt(deps, messageId, new Date(String(after.nextAttemptAt)));
}

/**
 * Attempts every due message (at most `limit`): the minute's sweep, for a message whose job was lost (an
 * instance stopped between storing the event and queueing its job). Answers how many were attempted.
 */
export async function deliverDue(deps: AppDeps, limit = 100): Promise<number> {
  const ids = await q.dueMessageIds(deps.db, deps.clock.now(), limit);
  for (const id of ids) await attemptAndSchedule(deps, id);
  return ids.length;
}
