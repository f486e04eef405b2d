// Void by agreement (作废/解约, issue 29). A completed contract is never deleted nor changed: it is voided only
// by a rescission agreement (解除协议) that the same parties sign. The launching account asks for it with a
// reason; the product drafts the agreement as a PDF (both languages: the original's title, flow id, parties,
// completion date and the SHA-256 of each signed document, the reason) and launches it as a new flow to the
// same parties, in the same steps and order. When that flow completes, the original is voided: its lists,
// detail, open API detail, verification result and the webhook `flow.voided` say so. A rescission declined,
// cancelled or expired leaves the original as it was. One open rescission per contract.
import { z } from 'zod';
import { bi } from '../bilingual.ts';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/rescission.ts';

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));

/** A flow named by a rescission link. */
export const zRescissionFlowRef = z.object({
  flowId: z.string(),
  title: z.string(),
  status: z.string(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type RescissionFlowRef = z.infer<typeof zRescissionFlowRef>;

export const startRescission = defineCall({
  call: P.startRescission,
  auth: true,
  summary:
    "The launching account (a person, or the company's administrator or a handler) asks to void a COMPLETED " +
    'contract by agreement: the rescission agreement is drafted as a PDF and launched as a new flow to the same ' +
    'parties in the same order (one quota unit, like any launch). Refused (1100) for a flow not completed, ' +
    'already voided, itself a rescission agreement, or with a rescission still open; another account 1101.',
  request: zBase.extend({
    flowId: zId,
    reason: z
      .string()
      .trim()
      .min(2, bi('enter the reason for voiding', '请输入作废原因'))
      .max(500, bi('the reason is too long (500 characters at most)', '原因过长（最多 500 字）')),
  }),
  response: z.object({ flowId: z.string(), verificationCodes: z.array(z.string()) }),
});

export const getRescission = defineCall({
  call: P.getRescission,
  auth: true,
  summary:
    "A flow's void-by-agreement state, for its launcher and its parties: the contract it rescinds (when it is a " +
    'rescission agreement), when and by which agreement it was voided, the open one, every one launched, and ' +
    'whether the caller may start one now. Another account 1101.',
  request: zBase.extend({ flowId: zId }),
  response: z.object({
    /** This flow is a rescission agreement of that contract. */
    rescinds: zRescissionFlowRef.nullable(),
    voidedAt: z.string().nullable(),
    voidedBy: zRescissionFlowRef.nullable(),
    /** The rescission being signed now. */
    open: zRescissionFlowRef.nullable(),
    /** Every rescission agreement of this contract, newest first (declined, cancelled and expired ones too). */
    history: z.array(zRescissionFlowRef),
    canStart: z.boolean(),
  }),
});

/** What the verification of a voided contract's signed PDF adds (verify module, issue 29). */
export const zRescissionNote = z.object({
  /** The voided contract. */
  flowId: z.string(),
  title: z.string(),
  voidedAt: z.string(),
  /** The rescission agreement that voided it and the SHA-256 of each of its signed documents. */
  rescissionFlowId: z.string(),
  rescissionTitle: z.string(),
  rescissionSha256: z.array(z.string()),
});
export type RescissionNote = z.infer<typeof zRescissionNote>;

export const rescissionCalls = [startRescission, getRescission] as const;
