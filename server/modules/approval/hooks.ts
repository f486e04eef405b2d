import type { Exec } from '../../db/sql-helpers.ts';
import type { AppDeps } from '../../deps.ts';
import { defineHook } from '../../lib/hooks.ts';
import type { AuditActor } from '../audit/index.ts';

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
    /** `seal`: a seal's use; `launch`: a held flow's sending. */
    kind: 'seal' | 'launch';
    status: string;
    flowId: string;
    flowTitle: string;
    /** A seal request's party and seal; null for a launch request. */
    partyId: string | null;
    sealId: string | null;
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

/**
 * A launch request reached its outcome, inside the decision's transaction (`tx`): the flow module, which holds
 * the flow, sends it (approved) or cancels it with the comment (rejected), storing what it needs with `tx`,
 * and answers what to do after the commit (the links, the webhooks).
 */
export type LaunchDecided = {
  deps: AppDeps;
  tx: Exec;
  flowId: string;
  approvalId: string;
  approved: boolean;
  comment: string | null;
  /** The approver who decided, as the flow's audit trail names them. */
  actor: AuditActor;
};

export const launchDecided = defineHook<LaunchDecided, (() => Promise<void>) | null>(
  'approval.launchDecided',
);
