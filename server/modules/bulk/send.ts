// Sending a batch in the background (the job `bulk.send`): row by row, each claimed by a conditional UPDATE with
// a lease, launched through the template module's own path (prepare a draft, launch it: quota, readiness,
// notices, webhooks as by hand). Exactly once per row, across crashes:
// - the row's draft is stored once (`draft_id IS NULL` guard); a row claimed again after a crash reuses it;
// - the launch moves the draft's document into the flow in the launch's own transaction, and a document is
//   moved once, so a draft is launched at most once; a row whose draft is already in a flow is recorded as
//   sent with that flow instead of being launched again.
// The job works for about a minute, then queues itself again (a job never outlives pg-boss's expiry); the
// minute sweep queues any batch still sending without a job (a job whose retries ran out).
import { Code } from '#contract/codes.ts';
import { jsonOf } from '../../db/sql-helpers.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { Actor } from '../../lib/actor.ts';
import type { Text } from '../../lib/text.ts';
import { F } from '../flow/index.ts';
import { quotaOf } from '../package/index.ts';
import { launchDraft, launchedFlowOfDraft, prepareTemplateLaunch } from '../template/index.ts';
import { storeAccountEvent } from '../webhook/index.ts';
import type { RowData } from './check.ts';
import { afterRowLaunch } from './hooks.ts';
import * as q from './queries.ts';

/** How long a claimed row is its sender's; after that (a killed server) another sender takes it. */
export const ROW_LEASE_MS = 2 * 60_000;
/** How long one job sends before it queues the next. */
const SLICE_MS = 60_000;

/** The launcher of a batch, as they were proven when they checked it. */
function actorOf(b: q.BulkRecord): Actor {
  return {
    userId: b.createdBy,
    userType: b.ownerType,
    companyId: b.ownerType === 1 ? b.ownerId : null,
    via:
      b.viaKind === 'apiKey' ? { kind: 'apiKey', keyId: b.viaId } : { kind: 'session', sessionId: b.viaId },
  };
}

const textOf = (err: AppError): Text =>
  typeof err.text === 'string' ? { en: err.text, zh: err.text } : err.text;

/**
 * Sends the batch's rows until none is left or the slice is over. Answers when to come back: null when the
 * batch is done (or not sending), else the moment another job should go on.
 */
export async function sendBatch(
  deps: AppDeps,
  bulkId: string,
  sliceMs = SLICE_MS,
): Promise<{ again: Date } | null> {
  const bulk = await q.bulkById(deps.db, bulkId);
  if (bulk?.status !== 'sending') return null;
  const actor = actorOf(bulk);
  const account = { ownerType: bulk.ownerType as 0 | 1, ownerId: bulk.ownerId };
  const started = performance.now();
  for (;;) {
    if (performance.now() - started > sliceMs) return { again: deps.clock.now() };
    const now = deps.clock.now();
    const row = await q.claimNextRow(deps.db, bulkId, now, new Date(now.getTime() + ROW_LEASE_MS));
    if (!row) break;
    await sendRow(deps, actor, bulk, row);
  }
  // Rows another sender holds (or a killed one held): come back when their lease is over.
  if ((await q.openRowCount(deps.db, bulkId)) > 0)
    return { again: new Date(deps.clock.now().getTime() + ROW_LEASE_MS) };
  const now = deps.clock.now();
  const after = await deps.db.transaction(async (tx) => {
    if (!(await q.markDone(tx, bulkId, now))) return null;
    const b = (await q.bulkById(tx, bulkId))!;
    return storeAccountEvent(deps, tx, account, 'bulk_send.completed', now, {
      bulkId,
      templateId: b.templateId,
      total: b.total,
      good: b.good,
      sent: b.sent,
      failed: b.failed,
    });
  });
  await after?.();
  return null;
}

async function sendRow(deps: AppDeps, actor: Actor, bulk: q.BulkRecord, row: q.BulkRowRecord): Promise<void> {
  const data = jsonOf<RowData>(row.data);
  const sent = (flowId: string) => q.finishRow(deps.db, bulk.id, row.rowNo, { flowId });
  try {
    // Claimed again after a crash: a draft already launched is this row's flow.
    if (row.draftId) {
      const flowId = await launchedFlowOfDraft(deps, actor, row.draftId);
      if (flowId) {
        await sent(flowId);
        return;
      }
    }
    let draftId = row.draftId;
    if (!draftId) {
      // No unit left: the rest fails without filling documents that would never be launched.
      if (
        (await quotaOf(deps, { ownerType: bulk.ownerType as 0 | 1, ownerId: bulk.ownerId })).remaining === 0
      )
        throw new AppError(Code.QuotaExhausted, F.quotaExhausted);
      const draft = await prepareTemplateLaunch(deps, actor, {
        userType: actor.userType,
        templateId: bulk.templateId,
        title: data.title,
        values: data.values,
        assignments: data.assignments,
      });
      draftId = draft.draftId;
      if (!(await q.setDraft(deps.db, bulk.id, row.rowNo, draftId))) return; // another sender has the row
    }
    let flowId: string;
    try {
      const launched = await launchDraft(
        deps,
        actor,
        { userType: actor.userType, draftId, deadline: data.deadline ?? undefined },
        { userAgent: `bulk send ${bulk.id}` },
      );
      flowId = launched.flowId;
    } catch (err) {
      // Launched meanwhile by another sender of this row: that flow is the row's.
      const other = err instanceof AppError ? await launchedFlowOfDraft(deps, actor, draftId) : null;
      if (!other) throw err;
      flowId = other;
    }
    await deps.hooks.emit(afterRowLaunch, { bulkId: bulk.id, rowNo: row.rowNo, flowId });
    await sent(flowId);
  } catch (err) {
    // Anything else (a database failure, a killed step) leaves the row claimed: it is taken again after its lease.
    if (!(err instanceof AppError)) throw err;
    const reason = textOf(err);
    await deps.db.transaction(async (tx) => {
      await q.finishRow(tx, bulk.id, row.rowNo, { error: reason });
      // The quota ran out: the rows still waiting fail with that reason.
      if (err.code === Code.QuotaExhausted) await q.failPending(tx, bulk.id, reason);
    });
  }
}

/** A batch's counters, whatever its account (the bench reads them). */
export async function batchCounts(deps: AppDeps, bulkId: string) {
  const b = await q.bulkById(deps.db, bulkId);
  return b ? { status: b.status, total: b.total, sent: b.sent, failed: b.failed } : undefined;
}
