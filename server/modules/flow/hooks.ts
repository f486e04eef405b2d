import { defineHook } from '../../lib/hooks.ts';
import type { AppDeps } from '../../deps.ts';
import type { Exec } from '../../db/sql-helpers.ts';

// Points inside a signature where tests inject a failure or a pause (crash safety and races). Nothing
// listens to them in the product; a listener's failure is the signature's failure.

/** After a signed version is written as a blob, before the document's version pointer moves. */
export const afterBlobWrite = defineHook<{ documentId: string }>('flow.afterBlobWrite');

/** After the transaction that stored a flow's last signature, before its completion. */
export const afterLastSignature = defineHook<{ flowId: string }>('flow.afterLastSignature');

/** What a flow event names: the webhook events (issue 13). */
export type FlowEventType =
  | 'flow.launched'
  | 'party.opened'
  | 'party.signed'
  | 'party.refused'
  | 'flow.completed'
  | 'flow.expired'
  | 'flow.cancelled';

/**
 * One moment in a flow's life, told after it is stored (its transaction committed). `account` is the
 * launching account: the only one told (its webhook endpoints). `party` is what the launcher sees of a
 * party (no phone); `reason` a cancel or refusal reason.
 */
export type FlowEvent = {
  type: FlowEventType;
  at: Date;
  flowId: string;
  title: string;
  status: string;
  account: { ownerType: 0 | 1; ownerId: string };
  party?: {
    partyId: string;
    step: number;
    kind: 'person' | 'company';
    name: string | null;
    companyName: string | null;
    status: string;
  };
  reason?: string | null;
};

/** What a `flowEvent` listener does once the change's transaction has committed (e.g. queue deliveries). */
export type AfterCommit = () => Promise<void>;

/**
 * Asked at launch, a party's first room view, a signature, a refusal, completion, expiry (both the
 * on-access check and the sweep go through endFlow) and cancel, inside the transaction that stores the
 * change (`tx`): a listener stores what it needs with `tx` (so the event exists exactly when the change
 * does: an outbox) and answers what to do after the commit. The webhook module listens.
 */
export const flowEvent = defineHook<{ deps: AppDeps; tx: Exec; event: FlowEvent }, AfterCommit | null>(
  'flow.event',
);
