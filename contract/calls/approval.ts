// Seal-use approval (用印审批, issue 27): per company seal, whether each use needs approval and by whom; the
// approval requests a handler makes from the signing room, and the approvers' decisions. An approval is bound to
// ONE flow party, ONE seal and the exact document versions (SHA-256) it was asked for, and expires.
// Launch approval (发起审批): the company's launch rule holds a flow launched by a handler (not the
// administrator) until its approvers approve (then it is sent) or one rejects (then it is cancelled); the request
// (kind `launch`) binds the flow and its documents' versions at launch and goes through the same decisions.
import { z } from 'zod';
import { bi } from '../bilingual.ts';
import { defineCall, zBase, zPage, zPageRequest } from '../envelope.ts';
import * as P from '../paths/approval.ts';

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));
const zRoom = zBase.extend({ roomToken: z.string().min(16).max(100) });

/**
 * How a seal's uses are approved:
 * - `none`: anyone authorised to the seal uses it without approval (the default for every seal);
 * - `one`: one of the approvers approves;
 * - `all_in_order`: every approver, in the order listed (the next one is asked once the previous approved);
 * - `all_any_order`: every approver, in any order.
 * A rejection by any approver rejects the request.
 */
export const APPROVAL_MODES = ['none', 'one', 'all_in_order', 'all_any_order'] as const;
export const zApprovalMode = z.enum(APPROVAL_MODES);
export type ApprovalMode = z.infer<typeof zApprovalMode>;

/** Hours an approval stays usable after it was granted, unless the policy says otherwise. */
export const DEFAULT_APPROVAL_VALID_HOURS = 72;
export const APPROVAL_VALID_HOURS = { min: 1, max: 24 * 30 } as const;
/** Approvers of one seal at most. */
export const MAX_APPROVERS = 10;

export const zSealPolicy = z.object({
  sealId: z.string(),
  mode: zApprovalMode,
  /** Approver user ids, in order (the order matters for `all_in_order`). */
  approvers: z.array(
    z.object({
      userId: z.string(),
      name: z.string().nullable(),
      /** Masked: first 3 and last 4 digits. */
      phoneMasked: z.string(),
      /** False when the member lost the approver role or left: the policy then cannot be met until changed. */
      isApprover: z.boolean(),
    }),
  ),
  /** Approval applies only to contracts whose amount (yuan) is at least this; null: to every use. */
  minAmount: z.number().nullable(),
  /** Approval applies only to flows launched from these templates; null: to every flow. */
  templateIds: z.array(z.string()).nullable(),
  /** Whether an approver may approve a request they made themselves (off by default). */
  allowSelfApproval: z.boolean(),
  /** Hours a granted approval stays usable. */
  validHours: z.number().int(),
  /** The company's members holding the approver role now: whom the rule may name. */
  candidates: z.array(z.object({ userId: z.string(), name: z.string().nullable(), phoneMasked: z.string() })),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type SealPolicy = z.infer<typeof zSealPolicy>;

/** The company's launch rule: the same fields as a seal's policy, for flows launched by its handlers. */
export const zLaunchPolicy = zSealPolicy.omit({ sealId: true });
export type LaunchPolicy = z.infer<typeof zLaunchPolicy>;

/** `seal`: a seal's use (用印); `launch`: a handler's flow before it is sent (发起). */
export const zApprovalKind = z.enum(['seal', 'launch']);
export type ApprovalKind = z.infer<typeof zApprovalKind>;

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'void', 'used'] as const;
/**
 * `pending` waiting for approvers; `approved` usable until it expires; `rejected` by an approver (comment says
 * why); `expired` not decided or not used in time; `void` the document changed, the flow ended, or the policy
 * changed before it was used; `used` the seal was applied under it.
 */
export const zApprovalStatus = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof zApprovalStatus>;

export const zApprovalDecision = z.object({
  userId: z.string(),
  name: z.string().nullable(),
  decision: z.enum(['approve', 'reject']),
  comment: z.string().nullable(),
  at: z.string(),
});

/** An approval request as a list shows it. */
export const zApprovalSummary = z.object({
  approvalId: z.string(),
  kind: zApprovalKind,
  status: zApprovalStatus,
  flowId: z.string(),
  flowTitle: z.string(),
  /** The contract's amount in yuan when the launcher stated one. */
  amount: z.number().nullable(),
  /** The seal of a seal request; null (name and image '') for a launch request. */
  sealId: z.string().nullable(),
  sealName: z.string(),
  /** GET URL of the seal's image (members of the seal's company). */
  sealImageUrl: z.string(),
  requesterName: z.string().nullable(),
  requesterPhoneMasked: z.string(),
  createdAt: z.string(),
  /** Pending: when the request lapses undecided; approved: until when it may be used (a launch: when decided). */
  expiresAt: z.string(),
  /** Whether the caller may decide it now (an approver whose turn it is, not their own request unless allowed). */
  canDecide: z.boolean(),
});
export type ApprovalSummary = z.infer<typeof zApprovalSummary>;

export const zApprovalDetail = zApprovalSummary.extend({
  mode: zApprovalMode,
  companyName: z.string(),
  /** The party the seal is for (its step, 1-based; 0 for a launch request) and the flow's initiator. */
  partyStep: z.number().int(),
  /** A launch request: the flow's parties as launched (step 1-based); empty for a seal request. */
  parties: z.array(
    z.object({
      step: z.number().int(),
      kind: z.enum(['person', 'company']),
      name: z.string().nullable(),
      companyName: z.string().nullable(),
    }),
  ),
  initiatorName: z.string().nullable(),
  initiatorCompanyName: z.string().nullable(),
  /** The documents exactly as they will be sealed (a launch: as they were launched): the bound versions. */
  documents: z.array(
    z.object({
      documentId: z.string(),
      name: z.string(),
      sha256: z.string(),
      pageCount: z.number().int(),
      /**
       * GET URL of this version's PDF (`${approvalDocument.path}/<approvalId>/<documentId>.pdf`): with the
       * session cookie (approvers, requester, administrator), or from the requester's room with `?roomToken=`.
       */
      url: z.string(),
    }),
  ),
  approvers: z.array(
    z.object({
      userId: z.string(),
      name: z.string().nullable(),
      /** Decided, waiting (their turn, or any order), or not yet asked (a later approver in order). */
      state: z.enum(['approved', 'rejected', 'waiting', 'not_yet']),
    }),
  ),
  decisions: z.array(zApprovalDecision),
  /** Why it became void (document changed, flow ended, policy changed), when it did. */
  voidReason: z.string().nullable(),
});
export type ApprovalDetail = z.infer<typeof zApprovalDetail>;

const zRuleFields = {
  mode: zApprovalMode,
  approverIds: z
    .array(zId)
    .max(MAX_APPROVERS, bi(`at most ${MAX_APPROVERS} approvers`, `审批人最多 ${MAX_APPROVERS} 位`))
    .default([]),
  minAmount: z.number().min(0).max(1e12).nullable().default(null),
  templateIds: z.array(zId).max(100).nullable().default(null),
  allowSelfApproval: z.boolean().default(false),
  validHours: z
    .number()
    .int()
    .min(APPROVAL_VALID_HOURS.min)
    .max(APPROVAL_VALID_HOURS.max)
    .default(DEFAULT_APPROVAL_VALID_HOURS),
};

export const getSealPolicy = defineCall({
  call: P.getSealPolicy,
  auth: true,
  summary:
    "A company seal's approval policy (mode `none` when never set). The administrator, the seal's keepers and the " +
    'company’s approvers read it; others 602.',
  request: zBase.extend({ sealId: zId }),
  response: zSealPolicy,
});

export const saveSealPolicy = defineCall({
  call: P.saveSealPolicy,
  auth: true,
  summary:
    "Sets a company seal's approval policy (administrator or a keeper of that seal). Approvers must be active " +
    'members holding the approver role (1100 names the one who is not). Pending and approved requests under the ' +
    'old policy become void. Recorded in the company’s audit trail.',
  request: zBase.extend({ sealId: zId, ...zRuleFields }),
  response: zSealPolicy,
});

export const getLaunchPolicy = defineCall({
  call: P.getLaunchPolicy,
  auth: true,
  summary:
    "The company's launch approval rule (mode `none` when never set). The administrator and the company's " +
    'approvers read it; others 602.',
  request: zBase,
  response: zLaunchPolicy,
});

export const saveLaunchPolicy = defineCall({
  call: P.saveLaunchPolicy,
  auth: true,
  summary:
    "Sets the company's launch approval rule (administrator only). Flows launched afterwards by a handler (any " +
    'member but the administrator) or one of its API keys, when the rule applies (amount at least the minimum, ' +
    'or no amount; template among those listed), are held until approved: nobody is told before. Requests ' +
    'already waiting keep their approvers; a request waits until its flow’s deadline (`validHours` does not ' +
    'apply to launches). Recorded in the company’s audit trail.',
  request: zBase.extend(zRuleFields),
  response: zLaunchPolicy,
});

export const getRoomApprovals = defineCall({
  call: P.getRoomApprovals,
  auth: false,
  summary:
    "The room party's approval state per company seal it may use: whether the seal needs approval for this flow " +
    'now, and the latest request for it (with its decisions), so the room shows "ask for approval", "waiting" or ' +
    '"rejected: <comment>". No seals for a person\'s party or a company not opened yet.',
  request: zRoom,
  response: z.object({
    seals: z.array(
      z.object({
        sealId: z.string(),
        needsApproval: z.boolean(),
        latest: zApprovalDetail.nullable(),
      }),
    ),
  }),
});

export const requestSealApproval = defineCall({
  call: P.requestSealApproval,
  auth: false,
  summary:
    'Asks for approval to apply this company seal to the room party’s documents as they are now. The approvers ' +
    'are told (message, SMS, e-mail, webhook `approval.requested`). A pending (or approved, unused) request of the ' +
    'party for the seal whose documents are unchanged since (signatures aside) is answered again instead of a ' +
    'second one. 1100 when the seal needs no approval.',
  request: zRoom.extend({ sealId: zId }),
  response: zApprovalDetail,
});

export const listApprovals = defineCall({
  call: P.listApprovals,
  auth: true,
  summary:
    "Approval requests (seal uses and launches, `kind`) of the session's company: `toMe` those the caller is an approver of (pending ones first), " +
    '`mine` those the caller asked for, `all` every one (administrator). Newest first.',
  request: zBase.extend(zPageRequest.shape).extend({
    scope: z.enum(['toMe', 'mine', 'all']).default('toMe'),
    status: zApprovalStatus.optional(),
  }),
  response: zPage(zApprovalSummary),
});

export const getApproval = defineCall({
  call: P.getApproval,
  auth: true,
  summary:
    'One approval request: the contract as it will be sealed, the flow, the requester, the seal and the decisions. ' +
    'For its approvers, its requester and the administrator of the seal’s company; others 1101.',
  request: zBase.extend({ approvalId: zId }),
  response: zApprovalDetail,
});

export const decideApproval = defineCall({
  call: P.decideApproval,
  auth: true,
  summary:
    'Approves or rejects a pending request (an approver whose turn it is). A rejection needs a comment. Two ' +
    'approvers deciding at once give one outcome; a decided, expired or void request is refused (1100, with its ' +
    'status). The requester is told; webhook `approval.decided`.',
  request: zBase.extend({
    approvalId: zId,
    decision: z.enum(['approve', 'reject']),
    comment: z.string().trim().max(500).optional(),
  }),
  response: zApprovalDetail,
});

export const approvalCalls = [
  getSealPolicy,
  saveSealPolicy,
  getLaunchPolicy,
  saveLaunchPolicy,
  getRoomApprovals,
  requestSealApproval,
  listApprovals,
  getApproval,
  decideApproval,
] as const;
