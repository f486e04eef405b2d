// Reassign (转交), deadline change and copying a signing link (issue 29). A party that should not sign hands its
// turn to someone else with a reason (from its room or its session; the launcher from the flow detail): a
// person party to a new name and phone, a company party to another administrator or handler of the same
// company. The old links stop working (they refuse as "handed over"), the room tokens expire, the new signer is
// sent the link when it is their turn. The launcher may forbid it per party at launch (`allowReassign`).
import { z } from 'zod';
import { bi } from '../bilingual.ts';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/reassign.ts';
import { zPhone } from './session.ts';

const zId = z.string().uuid(bi('not a valid id', '不是有效的 ID'));
const zRoomToken = z.string().min(16).max(100);

/** How far ahead a changed deadline must be, at least. */
export const DEADLINE_CHANGE_MIN_MS = 60 * 60_000;
/** How far ahead a changed deadline may be, at most: a year. */
export const DEADLINE_CHANGE_MAX_DAYS = 365;

export const zReassignReason = z
  .string()
  .trim()
  .min(2, bi('give the reason (at least 2 characters)', '请填写转交原因（至少 2 个字）'))
  .max(200, bi('the reason is at most 200 characters', '转交原因最多 200 字'));

/** Who takes the turn: a person (name and phone), or a member of the party's company (by user id). */
export const zReassignTarget = z.union([
  z.object({
    name: z.string().trim().min(1, bi('enter the new signer name', '请输入新签署人姓名')).max(32),
    phone: zPhone,
  }),
  z.object({ userId: zId }),
]);
export type ReassignTarget = z.infer<typeof zReassignTarget>;

export const zReassignCandidate = z.object({
  userId: z.string(),
  name: z.string().nullable(),
  phoneMasked: z.string(),
  role: z.enum(['admin', 'handler']),
});
export type ReassignCandidate = z.infer<typeof zReassignCandidate>;

export const listReassignCandidates = defineCall({
  call: P.listReassignCandidates,
  auth: false,
  summary:
    "A company party's possible new handlers: the company's active administrator and members holding the handler " +
    'role now, but the one the party is addressed to. For the room (roomToken) or the launcher / the party (session). ' +
    'A person party: an empty list (any name and phone). Another account: 1101.',
  request: zBase.extend({ flowId: zId, partyId: zId, roomToken: zRoomToken.optional() }),
  response: z.object({ candidates: z.array(zReassignCandidate) }),
});

export const reassignParty = defineCall({
  call: P.reassignParty,
  auth: false,
  summary:
    "Hands a party's turn to someone else, with a reason: by the party (roomToken, or its session) or the launcher " +
    '(session). A person party takes `{name, phone}`; a company party `{userId}` of an administrator or handler of ' +
    'its company (another member: 1100). Refused (1100) when the launcher forbade it for the party, the party ' +
    'signed or refused, the new signer is the same person, the party was handed over 5 times already, an embedded room whose phone is not proven yet; 1311 for an ended flow; 1101 for another account. In ' +
    "one transaction: the party's name and phone, a history row, the old links deleted and room tokens expired, " +
    'an audit entry on every document, the webhook event `party.reassigned`; then the new signer is sent the link ' +
    '(when it is their turn) and the old signer and the launcher are told.',
  request: zBase.extend({
    flowId: zId,
    partyId: zId,
    roomToken: zRoomToken.optional(),
    to: zReassignTarget,
    reason: zReassignReason,
  }),
  response: z.object({ reassignmentId: z.string(), partyStatus: z.string() }),
});

export const zReassignment = z.object({
  id: z.string(),
  partyId: z.string(),
  fromName: z.string().nullable(),
  fromPhoneMasked: z.string(),
  toName: z.string().nullable(),
  toPhoneMasked: z.string(),
  reason: z.string(),
  byRole: z.enum(['party', 'launcher']),
  byName: z.string().nullable(),
  at: z.string(),
});
export type Reassignment = z.infer<typeof zReassignment>;

export const listReassignments = defineCall({
  call: P.listReassignments,
  auth: false,
  summary:
    "A flow's reassignment history (oldest first) and, per party, whether it may still be reassigned " +
    "(`allowReassign` chosen at launch). For the flow's readers (session or roomToken), 1101 otherwise.",
  request: zBase.extend({ flowId: zId, roomToken: zRoomToken.optional() }),
  response: z.object({
    items: z.array(zReassignment),
    parties: z.array(z.object({ partyId: z.string(), allowReassign: z.boolean() })),
  }),
});

export const changeFlowDeadline = defineCall({
  call: P.changeFlowDeadline,
  auth: true,
  summary:
    "The launcher changes an open flow's signing deadline (extend or shorten): at least one hour ahead, at most " +
    `${DEADLINE_CHANGE_MAX_DAYS} days (1100 otherwise). The day-before notice is armed again; every unsigned party ` +
    'and the launcher are told; an audit entry; the webhook event `flow.deadline_changed`. 1311 for an ended flow, ' +
    '1101 for another account, 1100 for a party that is not the launcher.',
  request: zBase.extend({ flowId: zId, deadline: z.iso.datetime({ offset: true }) }),
  response: z.object({ deadline: z.string() }),
});

export const copySigningLink = defineCall({
  call: P.copySigningLink,
  auth: true,
  summary:
    'The launcher gets a fresh signing link of an unsigned party of an open flow that is not held for approval, to ' +
    'paste elsewhere: shown ONCE (never answered again: only its hash is stored), logged in the audit trail ' +
    '("link copied by …"). The party still logs in with an SMS code to its phone. 1100 for a waiting party (not ' +
    'its turn) or a flow held for approval, 1302 for a signed party, 1311 for an ended flow, 1101 for another account.',
  request: zBase.extend({ flowId: zId, partyId: zId }),
  response: z.object({
    /** The SPA path (`/singingRoom/<linkType>/<code>`) and the full URL. */
    link: z.string(),
    url: z.string(),
  }),
});

export const reassignCalls = [
  listReassignCandidates,
  reassignParty,
  listReassignments,
  changeFlowDeadline,
  copySigningLink,
] as const;
