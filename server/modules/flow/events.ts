import type { AppDeps } from '../../deps.ts';
import type { Exec } from '../../db/sql-helpers.ts';
import { type AfterCommit, type FlowEventComment, type FlowEventType, flowEvent } from './hooks.ts';
import { type Flow, type Party, accountOfFlow, findFlow } from './model.ts';

/** What to do once the transaction that stored flow events has committed. */
export type EventsAfterCommit = AfterCommit;

/** Nothing to do after the commit. */
export const nothingAfterCommit: EventsAfterCommit = async () => {};

/**
 * Stores a flow event for the flow's listeners (webhooks) inside `tx`, the transaction of the change it
 * reports: the flow as `tx` sees it now, and the party concerned as the launcher sees it. Answers what to
 * run after the commit (the listeners queue their deliveries then; a send lost there is found by their
 * sweeps, since the event is stored). Call it with the change's own transaction, never after it.
 */
export async function storeFlowEvent(
  deps: AppDeps,
  tx: Exec,
  type: FlowEventType,
  flowOrId: Flow | string,
  extra: {
    party?: Party;
    reason?: string | null;
    comment?: FlowEventComment;
    term?: { endsOn: string; daysLeft: number };
  } = {},
): Promise<EventsAfterCommit> {
  if (deps.hooks.count(flowEvent) === 0) return nothingAfterCommit;
  const flow = typeof flowOrId === 'string' ? await findFlow(tx, flowOrId) : flowOrId;
  if (!flow) return nothingAfterCommit;
  const p = extra.party;
  const after = await deps.hooks.collect(flowEvent, {
    deps,
    tx,
    event: {
      type,
      at: deps.clock.now(),
      flowId: flow.id,
      title: flow.title,
      status: flow.status,
      account: accountOfFlow(flow),
      ...(p
        ? {
            party: {
              partyId: p.id,
              step: p.stepIndex + 1,
              kind: p.kind,
              name: p.name,
              companyName: p.companyName,
              status: p.status,
            },
          }
        : {}),
      ...(extra.reason !== undefined ? { reason: extra.reason } : {}),
      ...(extra.comment ? { comment: extra.comment } : {}),
      ...(extra.term ? { term: extra.term } : {}),
    },
  });
  return async () => {
    for (const run of after) if (run) await run();
  };
}
