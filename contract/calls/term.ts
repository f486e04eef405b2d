// A contract's term, its expiry reminders and its renewal (issue 29). The term (start and end dates, separate
// from the signing deadline) is given at launch (launchFlow / launchTemplateFlow `term`) or later by the
// launcher (setFlowTerm); the flow sweep reminds the launcher and the chosen people 30, 7 and 1 days before the
// end of a COMPLETED flow, each threshold once (webhook `flow.term_ending`). "Renew / 续签" asks getFlowRenewal
// for the launch inputs of a new flow with the same parties (and template), launched with `renewsFlowId`.
import { z } from 'zod';
import { defineCall, zBase } from '../envelope.ts';
import * as P from '../paths/term.ts';
import { zApplies, zFlowStatus, zIntent } from './flow.ts';
import { TERM_REMIND_DAYS, zTermInput } from './term-input.ts';

const zId = z.uuid();

export const zFlowTerm = z.object({
  startsOn: z.string(),
  endsOn: z.string(),
  remindDays: z.array(z.number().int()),
  /** Phones in full for the launcher's account; masked for a party. */
  remindPeople: z.array(z.object({ phone: z.string(), name: z.string().nullable() })),
  /** Whole days from today (Beijing) to the end; negative once ended. */
  daysLeft: z.number().int(),
  state: z.enum(['notStarted', 'inForce', 'ended']),
  /** The thresholds already reminded. */
  sentDays: z.array(z.number().int()),
});
export type FlowTerm = z.infer<typeof zFlowTerm>;

const zFlowRef = z.object({
  flowId: z.string(),
  title: z.string(),
  status: zFlowStatus,
  createdAt: z.string(),
});

export const zTermView = z.object({
  term: zFlowTerm.nullable(),
  /** The flow this one renews (when launched by "Renew"). */
  renews: zFlowRef.nullable(),
  /** The flows launched as renewals of this one (of the launcher's account). */
  renewedBy: z.array(zFlowRef),
  /** The caller's account launched the flow: may edit the term (open or completed flow) and renew it (completed). */
  isLauncher: z.boolean(),
});
export type TermView = z.infer<typeof zTermView>;

export const getFlowTerm = defineCall({
  call: P.getFlowTerm,
  auth: true,
  summary:
    "A flow's term, the flow it renews and its renewals, for the flow's readers (the launcher's account, its " +
    'parties); others 1101.',
  request: zBase.extend({ flowId: zId }),
  response: zTermView,
});

export const setFlowTerm = defineCall({
  call: P.setFlowTerm,
  auth: true,
  summary:
    "The launcher's account sets, changes or (term null) removes a flow's term while it is signing or completed " +
    '(1100 once it ended otherwise); the reminders start over (a threshold already past is not sent again ' +
    'except the nearest). An audit entry on every document. Others 1101.',
  request: zBase.extend({ flowId: zId, term: zTermInput.nullable() }),
  response: zTermView,
});

/** A party of a renewal as the launch screen takes it: by a picked user (phone masked) or a typed phone. */
export const zRenewalParty = z.object({
  kind: z.enum(['person', 'company']),
  name: z.string().nullable(),
  /** The phone typed at the first launch (null when the signer is picked by user id; a template flow always has it). */
  phone: z.string().nullable(),
  picked: z.object({ userId: z.string(), phoneMasked: z.string() }).nullable(),
  companyId: z.string().nullable(),
  companyName: z.string().nullable(),
  applies: zApplies,
  intent: zIntent,
});
export type RenewalParty = z.infer<typeof zRenewalParty>;

export const getFlowRenewal = defineCall({
  call: P.getFlowRenewal,
  auth: true,
  summary:
    'What "Renew / 续签" pre-fills for a COMPLETED flow of the caller\'s account (1101 for any other, a party ' +
    'included; 1100 while not completed): the title "… (renewal)", message, automatic reminders, steps with the same ' +
    'parties and a next term (the day after the old end, as long); for a template flow its template (the ' +
    'parties in the order of its roles). Launch it with `renewsFlowId`. Documents are chosen again.',
  request: zBase.extend({ flowId: zId }),
  response: z.object({
    flowId: z.string(),
    kind: z.enum(['upload', 'template']),
    title: z.string(),
    message: z.string().nullable(),
    remindEveryDays: z.number().int().nullable(),
    steps: z.array(z.object({ parties: z.array(zRenewalParty) })),
    term: zTermInput.nullable(),
    /** A template flow: its template (the parties, step by step, are its roles' in order). */
    templateId: z.string().nullable(),
  }),
});

export const zTermBrief = z.object({
  flowId: z.string(),
  endsOn: z.string(),
  daysLeft: z.number().int(),
  state: zFlowTerm.shape.state,
});

export const listFlowTerms = defineCall({
  call: P.listFlowTerms,
  auth: true,
  summary:
    'The terms of up to 100 flows the caller\'s account launched (a list\'s "expires in N days"); flows without a ' +
    'term, or not launched by the account, are left out.',
  request: zBase.extend({ flowIds: z.array(zId).max(100) }),
  response: z.object({ items: z.array(zTermBrief) }),
});

export { TERM_REMIND_DAYS };
export const termCalls = [getFlowTerm, setFlowTerm, getFlowRenewal, listFlowTerms] as const;
