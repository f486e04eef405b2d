import type { Actor } from '../../lib/actor.ts';
import { randomUUID } from 'node:crypto';
import type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
  listWebhookDeliveries,
} from '#contract/calls/webhook.ts';
import { Code } from '#contract/codes.ts';
import type { CallResponse } from '#contract/envelope.ts';
import { UserType } from '#contract/enums.ts';
import type { AppDeps } from '../../deps.ts';
import { type Exec, dateOf, isoOrNull, jsonOf } from '../../db/sql-helpers.ts';
import { AppError } from '../../http/app-error.ts';
import { requireCompanyRole } from '../company/index.ts';
import type { Account } from '../../lib/account.ts';
import type { ApprovalEvent } from '../approval/index.ts';
import type { FlowEvent } from '../flow/index.ts';
import { RETRY_WINDOW_MS, deliverMessage, redeliverNow, scheduleAttempt } from './deliver.ts';
import { checkWebhookUrl } from './address-guard.ts';
import * as q from './queries.ts';
import { sealSecret } from './secret.ts';
import { newSecret } from './signature.ts';
import { W } from './texts.ts';

/** At most this many endpoints per account. */
const MAX_ENDPOINTS = 20;

/**
 * The account whose endpoints the caller manages: a person's own; a company's, for its administrators only
 * (an operator is refused, like other company settings).
 */
async function webhookAccount(deps: AppDeps, actor: Actor): Promise<Account> {
  if (actor.userType === UserType.Company) {
    const access = await requireCompanyRole(deps, actor, ['admin']);
    return { ownerType: 1, ownerId: access.companyId };
  }
  return { ownerType: 0, ownerId: actor.userId };
}

const endpointNotFound = () => new AppError(Code.NotFound, W.endpointNotFound);

function present(row: q.EndpointRecord, last: q.AttemptRecord | undefined): WebhookEndpoint {
  return {
    endpointId: row.id,
    url: row.url,
    description: row.description,
    events: jsonOf<WebhookEvent[]>(row.events),
    enabled: row.enabled,
    createdAt: dateOf(row.createdAt).toISOString(),
    lastAttempt: last
      ? { at: dateOf(last.at).toISOString(), ok: last.ok, responseCode: last.responseCode }
      : null,
  };
}

async function presentOne(deps: AppDeps, row: q.EndpointRecord): Promise<WebhookEndpoint> {
  return present(row, (await q.lastAttempts(deps.db, [row.id])).get(row.id));
}

/**
 * A URL webhooks may be posted to: https, to a host that is and resolves to public addresses only; with
 * WEBHOOK_ALLOW_LOCAL (outside production by default) any http(s) URL. Checked again at every delivery.
 */
async function checkUrl(deps: AppDeps, url: string): Promise<void> {
  const refusal = await checkWebhookUrl(url, deps.config.webhooks.allowLocal);
  if (!refusal) return;
  if (refusal.reason === 'https-only') throw new AppError(Code.Refused, W.httpsOnly);
  if (refusal.reason === 'unresolvable')
    throw new AppError(Code.Refused, W.unresolvable(refusal.host), { data: { host: refusal.host } });
  const { host, address, range } = refusal;
  throw new AppError(Code.Refused, W.notPublic(host, address, range), { data: { host, address, range } });
}

export async function createEndpoint(
  deps: AppDeps,
  actor: Actor,
  input: { url: string; description?: string; events: WebhookEvent[] },
): Promise<WebhookEndpoint & { secret: string }> {
  const account = await webhookAccount(deps, actor);
  await checkUrl(deps, input.url);
  if ((await q.countEndpoints(deps.db, account)) >= MAX_ENDPOINTS)
    throw new AppError(Code.Refused, W.tooMany(MAX_ENDPOINTS));
  const id = randomUUID();
  const secret = newSecret();
  await q.insertEndpoint(deps.db, {
    id,
    account,
    url: input.url,
    description: input.description || null,
    events: [...new Set(input.events)],
    secretSealed: await sealSecret(deps, id, secret),
    createdBy: actor.userId,
    now: deps.clock.now(),
  });
  const row = (await q.findEndpoint(deps.db, account, id))!;
  return { ...present(row, undefined), secret };
}

export async function listEndpoints(deps: AppDeps, actor: Actor): Promise<WebhookEndpoint[]> {
  const account = await webhookAccount(deps, actor);
  const found = await q.listEndpoints(deps.db, account);
  const last = await q.lastAttempts(
    deps.db,
    found.map((e) => e.id),
  );
  return found.map((e) => present(e, last.get(e.id)));
}

/** An endpoint of the caller's account; another account's id is not found (never told apart). */
async function endpointOf(deps: AppDeps, actor: Actor, id: string) {
  const account = await webhookAccount(deps, actor);
  const row = await q.findEndpoint(deps.db, account, id);
  if (!row) throw endpointNotFound();
  return { account, row };
}

export async function setEndpointEnabled(
  deps: AppDeps,
  actor: Actor,
  id: string,
  enabled: boolean,
): Promise<WebhookEndpoint> {
  const { account } = await endpointOf(deps, actor, id);
  if (!(await q.updateEndpoint(deps.db, account, id, { enabled }, deps.clock.now())))
    throw endpointNotFound();
  return presentOne(deps, (await q.findEndpoint(deps.db, account, id))!);
}

export async function rotateSecret(
  deps: AppDeps,
  actor: Actor,
  id: string,
): Promise<WebhookEndpoint & { secret: string }> {
  const { account } = await endpointOf(deps, actor, id);
  const secret = newSecret();
  if (
    !(await q.updateEndpoint(
      deps.db,
      account,
      id,
      { secretSealed: await sealSecret(deps, id, secret) },
      deps.clock.now(),
    ))
  )
    throw endpointNotFound();
  return { ...(await presentOne(deps, (await q.findEndpoint(deps.db, account, id))!)), secret };
}

export async function deleteEndpoint(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  const account = await webhookAccount(deps, actor);
  if (!(await q.deleteEndpoint(deps.db, account, id))) throw endpointNotFound();
}

function presentDelivery(m: q.MessageRecord, attempts: q.AttemptRecord[]): WebhookDelivery {
  return {
    deliveryId: m.id,
    eventId: m.eventId,
    type: m.type,
    createdAt: dateOf(m.createdAt).toISOString(),
    state: m.state,
    nextAttemptAt: m.state === 'pending' ? isoOrNull(m.nextAttemptAt) : null,
    attempts: attempts
      .filter((a) => a.messageId === m.id)
      .map((a) => ({
        at: dateOf(a.at).toISOString(),
        ok: a.ok,
        responseCode: a.responseCode,
        durationMs: a.durationMs,
        error: a.error,
        manual: a.manual,
      })),
  };
}

async function presentDeliveryById(deps: AppDeps, id: string): Promise<WebhookDelivery> {
  const m = (await q.findMessage(deps.db, id))!;
  return presentDelivery(m, await q.attemptsOf(deps.db, [id]));
}

export async function listDeliveries(
  deps: AppDeps,
  actor: Actor,
  input: { endpointId: string; pageNum: number; pageSize: number },
): Promise<CallResponse<typeof listWebhookDeliveries>> {
  const { row } = await endpointOf(deps, actor, input.endpointId);
  const { list, total } = await q.listMessages(deps.db, row.id, input);
  const attempts = await q.attemptsOf(
    deps.db,
    list.map((m) => m.id),
  );
  return {
    list: list.map((m) => presentDelivery(m, attempts)),
    total,
    pageNum: input.pageNum,
    pageSize: input.pageSize,
  };
}

/** Sends a delivery of the caller's account again now and answers it with the new attempt. */
export async function redeliver(deps: AppDeps, actor: Actor, deliveryId: string): Promise<WebhookDelivery> {
  const account = await webhookAccount(deps, actor);
  const message = await q.findOwnedMessage(deps.db, account, deliveryId);
  if (!message) throw new AppError(Code.NotFound, W.deliveryNotFound);
  await redeliverNow(deps, message);
  return presentDeliveryById(deps, deliveryId);
}

/** The body every receiver gets: the event's id, type, time and data. */
const bodyOf = (eventId: string, type: string, at: Date, data: object): string =>
  JSON.stringify({ id: eventId, type, createdAt: at.toISOString(), data });

/** A `webhook.test` event to one endpoint, sent now and not retried. */
export async function sendTestEvent(
  deps: AppDeps,
  actor: Actor,
  endpointId: string,
): Promise<WebhookDelivery> {
  const { row } = await endpointOf(deps, actor, endpointId);
  const now = deps.clock.now();
  const eventId = randomUUID();
  const id = randomUUID();
  const body = bodyOf(eventId, 'webhook.test', now, { endpointId: row.id });
  await q.insertMessage(deps.db, {
    id,
    endpointId: row.id,
    eventId,
    type: 'webhook.test',
    body,
    now,
    retryUntil: now,
  });
  await deliverMessage(deps, id);
  return presentDeliveryById(deps, id);
}

/**
 * flow's `flowEvent` listener, inside the transaction of the flow change (`tx`): one message per enabled
 * endpoint of the launching account subscribed to the event, all with the same event id, stored with the
 * change (a transactional outbox: no change without its event, no event without its change). Answers what
 * to run after the commit: queue each message's first attempt (job `webhook.deliver`); a message whose job
 * could not be queued then (or whose instance stopped first) is due already and the minute's sweep sends it.
 */
export async function storeFlowEventMessages(
  deps: AppDeps,
  tx: Exec,
  event: FlowEvent,
): Promise<(() => Promise<void>) | null> {
  return storeEventMessages(deps, tx, event.account, event.type, event.at, {
    flowId: event.flowId,
    title: event.title,
    status: event.status,
    ...(event.party ? { party: event.party } : {}),
    ...(event.reason !== undefined ? { reason: event.reason } : {}),
    ...(event.comment ? { comment: event.comment } : {}),
    ...(event.term ? { term: event.term } : {}),
  });
}

/**
 * approval's `approvalEvent` listener (issue 27), inside the transaction of the request or decision: the seal
 * company's endpoints subscribed to `approval.requested` / `approval.decided`, stored as flow events are.
 */
export function storeApprovalEventMessages(
  deps: AppDeps,
  tx: Exec,
  event: ApprovalEvent,
): Promise<(() => Promise<void>) | null> {
  return storeEventMessages(
    deps,
    tx,
    { ownerType: UserType.Company, ownerId: event.companyId },
    event.type,
    event.at,
    event.data,
  );
}

/**
 * One message per subscribed endpoint of the account, stored in `tx`; answers the queueing after the commit.
 * Also what modules above use for their own events (bulk's `bulk_send.completed`).
 */
export async function storeEventMessages(
  deps: AppDeps,
  tx: Exec,
  account: Account,
  type: string,
  at: Date,
  data: object,
): Promise<(() => Promise<void>) | null> {
  const endpoints = await q.subscribedEndpoints(tx, account, type);
  if (endpoints.length === 0) return null;
  const eventId = randomUUID();
  const body = bodyOf(eventId, type, at, data);
  const now = deps.clock.now();
  const ids: string[] = [];
  for (const e of endpoints) {
    const id = randomUUID();
    await q.insertMessage(tx, {
      id,
      endpointId: e.id,
      eventId,
      type,
      body,
      now,
      retryUntil: new Date(now.getTime() + RETRY_WINDOW_MS),
    });
    ids.push(id);
  }
  return async () => {
    // The change that stored them has committed: it is not reported as failed for a lost send.
    for (const id of ids)
      await scheduleAttempt(deps, id).catch((err: unknown) =>
        deps.log.warn({ err, messageId: id }, 'webhook: delivery job not queued; the sweep will send it'),
      );
  };
}
