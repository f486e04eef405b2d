import type { AppDeps } from '../../deps.ts';
import { type FlowEventType, flowEvent } from './hooks.ts';
import { type FlowRow, type PartyRow, accountOfFlow, findFlow } from './model.ts';

/**
 * Tells the flow's listeners (webhooks) that something was stored: the flow as it is now, and the party
 * concerned as the launcher sees it. Called after the change committed.
 */
export async function tellFlowEvent(
  deps: AppDeps,
  type: FlowEventType,
  flowOrId: FlowRow | string,
  extra: { party?: PartyRow; reason?: string | null } = {},
): Promise<void> {
  if (deps.hooks.count(flowEvent) === 0) return;
  const flow = typeof flowOrId === 'string' ? await findFlow(deps.db, flowOrId) : flowOrId;
  if (!flow) return;
  const p = extra.party;
  await deps.hooks.emit(flowEvent, {
    deps,
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
              step: p.step_index + 1,
              kind: p.kind,
              name: p.name,
              companyName: p.company_name,
              status: p.status,
            },
          }
        : {}),
      ...(extra.reason !== undefined ? { reason: extra.reason } : {}),
    },
  });
}
