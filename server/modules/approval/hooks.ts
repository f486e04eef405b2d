import type { Exec } from '../../db/sql-helpers.ts';
import type { AppDeps } from '../../deps.ts';
import { defineHook } from '../../lib/hooks.ts';

// What the approval module tells the modules above it, without importing them (lib/hooks.ts, server/README.md).

/**
 * "Put this notice in the person's message list (/message)": the flow module, which keeps that list, answers.
 * The notice is the member's within the seal's company (`companyId`): they read it acting for the company.
 */
export const approvalNotice = defineHook<{
  deps: AppDeps;
  phone: string;
  companyId: string;
  kind: 'approval_requested' | 'approval_decided';
  title: string;
  text: string;
  flowId: string;
  /** SPA path (hash router) the message opens. */
  link: string;
}>('approval.notice');

export type ApprovalEventType = 'approval.requested' | 'approval.decided';

/** What an approval webhook names (no phone): the request as the seal's company sees it. */
export type ApprovalEvent = {
  type: ApprovalEventType;
  at: Date;
  /** The seal's company: the only account told (its webhook endpoints). */
  companyId: string;
  data: {
    approvalId: string;
    status: string;
    flowId: string;
    flowTitle: string;
    partyId: string;
    sealId: string;
    sealName: string;
    requesterUserId: string;
    /** approval.decided: who decided what, with the comment. */
    decision?: { userId: string; decision: 'approve' | 'reject'; comment: string | null };
  };
};

/**
 * Asked inside the transaction that stores a request or a decision (`tx`): a listener stores what it needs with
 * `tx` (an outbox, as flow's `flowEvent`) and answers what to do after the commit. The webhook module listens.
 */
export const approvalEvent = defineHook<
  { deps: AppDeps; tx: Exec; event: ApprovalEvent },
  (() => Promise<void>) | null
>('approval.event');
