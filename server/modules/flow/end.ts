import type { Actor } from '../../lib/actor.ts';
import { Code } from '#contract/codes.ts';
import type { Exec } from '../../db/sql-helpers.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { voidForFlow } from '../approval/index.ts';
import { type AuditActor, appendAudit } from '../audit/index.ts';
import { flowDocuments } from '../document/index.ts';
import { findUserById } from '../session/index.ts';
import { type Flow, accountOfFlow, findFlow, findParty, notifyEnd } from './model.ts';
import { type EventsAfterCommit, nothingAfterCommit, storeFlowEvent } from './events.ts';
import { releaseUnit } from '../package/index.ts';
import { F } from './texts.ts';

import * as q from './queries.ts';
import { type Room, roomActor, roomState } from './room.ts';
import { flowAccess, sessionActor } from './access.ts';

/** How a flow ends: its status, the reason, who ends it (and the party that declined). */
type FlowEnd = {
  status: 'cancelled' | 'declined' | 'expired';
  reason: string | null;
  actor: AuditActor;
  decliningPartyId?: string;
};

/**
 * Ends an open flow in one transaction: status (only from 'signing', so two enders cannot both win), the
 * unsigned parties closed, the quota unit released, an audit entry on every document. False when the
 * flow was not open any more.
 *
 * The flow's states form one machine, each transition a single conditional UPDATE of the flow row:
 * open (status 'signing', current_step < step_count) -> all signed (current_step = step_count, set in the
 * same transaction that stores the last signature) -> completed; only an open flow can be cancelled,
 * declined or expired. Once the last signature is stored, completion is the only way on (a crash before it
 * is finished by completeStragglers), so a cancel arriving in between is refused.
 */
async function endFlow(deps: AppDeps, flowId: string, end: FlowEnd): Promise<boolean> {
  const after = await deps.db.transaction((tx) => endFlowIn(deps, tx, flowId, end));
  if (after) await after();
  return after !== null;
}

/**
 * endFlow's transaction, in `tx` (also a launch rejection's, approval's decision): answers what to do after the
 * commit (the initiator told, the event delivered), or null when the flow was not open any more.
 */
export async function endFlowIn(
  deps: AppDeps,
  tx: Exec,
  flowId: string,
  end: FlowEnd,
): Promise<(() => Promise<void>) | null> {
  const now = deps.clock.now();
  const event = end.status === 'cancelled' ? 'cancel' : end.status === 'declined' ? 'decline' : 'expire';
  let afterCommit: EventsAfterCommit = nothingAfterCommit;
  const flow = await q.endOpenFlow(tx, flowId, { status: end.status, reason: end.reason, now });
  if (!flow) return null;
  await releaseUnit(tx, accountOfFlow(flow), flowId, now);
  if (end.decliningPartyId) await q.markPartyDeclined(tx, end.decliningPartyId, end.reason, now);
  await q.closeOpenParties(tx, flowId);
  // Its open seal-use approvals can serve nothing any more.
  await voidForFlow(tx, flowId, 'flow_ended', now);
  for (const d of await flowDocuments(tx, flowId))
    await appendAudit(tx, {
      ...end.actor,
      flowId,
      documentId: d.id,
      event,
      detail: end.reason,
      at: now,
      hashBefore: d.currentSha256,
      hashAfter: d.currentSha256,
    });
  // The event is stored with the change (an outbox): it exists exactly when the flow ended.
  if (end.status === 'declined') {
    const party = end.decliningPartyId ? await findParty(tx, end.decliningPartyId) : undefined;
    afterCommit = await storeFlowEvent(deps, tx, 'party.refused', flow, { party, reason: end.reason });
  } else
    afterCommit = await storeFlowEvent(
      deps,
      tx,
      end.status === 'cancelled' ? 'flow.cancelled' : 'flow.expired',
      flow,
      { reason: end.reason },
    );
  return async () => {
    const ended = (await findFlow(deps.db, flowId))!;
    const initiator = await findUserById(deps.db, ended.initiatorUserId);
    await notifyEnd(deps, ended, end.status, initiator?.phone ?? null);
    await afterCommit();
  };
}

/** Every party has signed (the last signature is stored) and the flow is completing or completed. */
const isAllSigned = (f: Flow): boolean =>
  f.status === 'completed' || (f.status === 'signing' && f.currentStep >= f.stepCount);

const PLATFORM_ACTOR: AuditActor = { actor: 'platform' };

/** Expires one flow when its deadline has passed (called on access). */
export async function expireIfDue(deps: AppDeps, flowId: string): Promise<void> {
  if (await q.isDue(deps.db, flowId, deps.clock.now()))
    await endFlow(deps, flowId, { status: 'expired', reason: null, actor: PLATFORM_ACTOR });
}

/** Expires every open flow past its deadline (the timer's sweep and list calls). */
export async function sweepExpired(deps: AppDeps): Promise<number> {
  let n = 0;
  for (const id of await q.dueFlowIds(deps.db, deps.clock.now()))
    if (await endFlow(deps, id, { status: 'expired', reason: null, actor: PLATFORM_ACTOR })) n++;
  return n;
}

export async function cancel(
  deps: AppDeps,
  session: Actor,
  flowId: string,
  reason: string,
  req: { ip?: string; userAgent?: string | null },
): Promise<void> {
  await expireIfDue(deps, flowId);
  const access = await flowAccess(deps, { session }, flowId);
  // Only the initiating account cancels; a party declines instead.
  if (!access.isInitiator) throw new AppError(Code.Refused, F.notInitiator, { status: 602 });
  const actor = await sessionActor(deps, session, req, access.flow.initiatorCompanyName);
  if (!(await endFlow(deps, flowId, { status: 'cancelled', reason, actor }))) {
    const now = (await findFlow(deps.db, flowId))!;
    throw new AppError(Code.FlowClosed, isAllSigned(now) ? F.allSigned : F.flowClosed(now.status));
  }
}

/** declineFlow: the room's party refuses; the flow ends 'declined' with its reason. */
export async function decline(
  deps: AppDeps,
  room: Room,
  reason: string,
  req: { ip?: string; userAgent?: string | null },
): Promise<void> {
  const { flow, party } = await roomState(deps, room);
  if (party.status === 'signed') throw new AppError(Code.AlreadySigned, F.alreadySigned);
  if (flow.status !== 'signing') throw new AppError(Code.FlowClosed, F.flowClosed(flow.status));
  const actor = await roomActor(deps, room, party, req);
  const ok = await endFlow(deps, flow.id, { status: 'declined', reason, actor, decliningPartyId: party.id });
  if (!ok) throw new AppError(Code.FlowClosed, F.flowClosed((await roomState(deps, room)).flow.status));
}
