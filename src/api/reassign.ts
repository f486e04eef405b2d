// Typed client of contract/calls/reassign.ts (issue 29: reassign, deadline change, copy link). Types only from
// the contract: the signing room imports this, so nothing here may pull zod or antd.
import type * as calls from '#contract/calls/reassign.ts';
import * as P from '#contract/paths/reassign.ts';
import { call } from './http.ts';

export type { ReassignCandidate, ReassignTarget, Reassignment } from '#contract/calls/reassign.ts';

export const listReassignCandidates = call<typeof calls.listReassignCandidates>(P.listReassignCandidates);
export const reassignParty = call<typeof calls.reassignParty>(P.reassignParty);
export const listReassignments = call<typeof calls.listReassignments>(P.listReassignments);
export const changeFlowDeadline = call<typeof calls.changeFlowDeadline>(P.changeFlowDeadline);
export const copySigningLink = call<typeof calls.copySigningLink>(P.copySigningLink);
