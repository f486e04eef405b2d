// Typed client of contract/calls/approval.ts (types only from the contract: no zod in the bundle).
import type * as calls from '#contract/calls/approval.ts';
import * as P from '#contract/paths/approval.ts';
import { call, type Res } from './http.ts';
import { downloadAt } from './transfer.ts';

export type {
  ApprovalDetail,
  ApprovalMode,
  ApprovalStatus,
  ApprovalKind,
  ApprovalSummary,
  LaunchPolicy,
  SealPolicy,
} from '#contract/calls/approval.ts';
export type RoomApprovals = Res<typeof calls.getRoomApprovals>;
export type RoomSealApproval = RoomApprovals['seals'][number];

/** The contract's constants (approval.ts holds zod, so repeated here and typed against it). */
export const APPROVAL_MODES: readonly calls.ApprovalMode[] = ['none', 'one', 'all_in_order', 'all_any_order'];
export const DEFAULT_APPROVAL_VALID_HOURS: typeof calls.DEFAULT_APPROVAL_VALID_HOURS = 72;
export const APPROVAL_VALID_HOURS: typeof calls.APPROVAL_VALID_HOURS = { min: 1, max: 24 * 30 };
export const MAX_APPROVERS: typeof calls.MAX_APPROVERS = 10;

export const getSealPolicy = call<typeof calls.getSealPolicy>(P.getSealPolicy);
export const saveSealPolicy = call<typeof calls.saveSealPolicy>(P.saveSealPolicy);
export const getLaunchPolicy = call<typeof calls.getLaunchPolicy>(P.getLaunchPolicy);
export const saveLaunchPolicy = call<typeof calls.saveLaunchPolicy>(P.saveLaunchPolicy);
export const getRoomApprovals = call<typeof calls.getRoomApprovals>(P.getRoomApprovals);
export const requestSealApproval = call<typeof calls.requestSealApproval>(P.requestSealApproval);
export const listApprovals = call<typeof calls.listApprovals>(P.listApprovals);
export const getApproval = call<typeof calls.getApproval>(P.getApproval);
export const decideApproval = call<typeof calls.decideApproval>(P.decideApproval);

/** The PDF of one document exactly as the approval is bound to it. */
export const approvalDocumentUrl = (approvalId: string, documentId: string) =>
  downloadAt(P.approvalDocument, [approvalId, `${documentId}.pdf`]);
