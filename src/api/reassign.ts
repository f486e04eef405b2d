// Typed client of contract/calls/reassign.ts (issue 29: reassign, deadline change, copy link). Types only from
// the contract: the signing room imports this, so nothing here may pull zod or antd.
import type * as calls from '#contract/calls/reassign.ts';
import * as P from '#contract/paths/reassign.ts';
import { call } from './http.ts';

import type { ReassignTarget } from '#contract/calls/reassign.ts';

export type { ReassignCandidate, ReassignTarget, Reassignment } from '#contract/calls/reassign.ts';

export const listReassignCandidates = call<typeof calls.listReassignCandidates>(P.listReassignCandidates);
export const reassignParty = call<typeof calls.reassignParty>(P.reassignParty);
export const listReassignments = call<typeof calls.listReassignments>(P.listReassignments);
export const changeFlowDeadline = call<typeof calls.changeFlowDeadline>(P.changeFlowDeadline);
export const copySigningLink = call<typeof calls.copySigningLink>(P.copySigningLink);

/** What the hand-over forms check before asking (the server checks again): the keys of the texts to show. */
export type ReassignFormIssue = 'reasonRequired' | 'handlerRequired' | 'nameRequired' | 'phoneInvalid';

/** The hand-over form's target and the issues found: a company party picks a handler, a person a name and phone. */
export function checkReassignForm(f: {
  isCompany: boolean;
  name: string;
  phone: string;
  handler: string | undefined;
  reason: string;
}): {
  to: ReassignTarget | null;
  issues: Partial<Record<'reason' | 'handler' | 'name' | 'phone', ReassignFormIssue>>;
} {
  const issues: Partial<Record<'reason' | 'handler' | 'name' | 'phone', ReassignFormIssue>> = {};
  if (f.reason.trim().length < 2) issues.reason = 'reasonRequired';
  if (f.isCompany) {
    if (!f.handler) issues.handler = 'handlerRequired';
  } else {
    if (!f.name.trim()) issues.name = 'nameRequired';
    if (!/^1\d{10}$/.test(f.phone.trim())) issues.phone = 'phoneInvalid';
  }
  if (Object.keys(issues).length > 0) return { to: null, issues };
  return {
    to: f.isCompany ? { userId: f.handler! } : { name: f.name.trim(), phone: f.phone.trim() },
    issues,
  };
}
