// Typed client of contract/calls/term.ts and drafts.ts (issue 29: contract term, renewal, launch drafts).
import type * as drafts from '#contract/calls/drafts.ts';
import type * as calls from '#contract/calls/term.ts';
import * as DP from '#contract/paths/drafts.ts';
import * as P from '#contract/paths/term.ts';
import { call } from './http.ts';

export type { LaunchDraftSummary } from '#contract/calls/drafts.ts';
export type { FlowTerm, RenewalParty, TermView } from '#contract/calls/term.ts';
export type { TermInput, TermInputIn } from '#contract/calls/term-input.ts';
export { TERM_MAX_PEOPLE, TERM_REMIND_DAYS } from '#contract/rules/term.ts';

export const getFlowTerm = call<typeof calls.getFlowTerm>(P.getFlowTerm);
export const setFlowTerm = call<typeof calls.setFlowTerm>(P.setFlowTerm);
export const getFlowRenewal = call<typeof calls.getFlowRenewal>(P.getFlowRenewal);
export const listFlowTerms = call<typeof calls.listFlowTerms>(P.listFlowTerms);

export const saveLaunchDraft = call<typeof drafts.saveLaunchDraft>(DP.saveLaunchDraft);
export const listLaunchDrafts = call<typeof drafts.listLaunchDrafts>(DP.listLaunchDrafts);
export const getLaunchDraft = call<typeof drafts.getLaunchDraft>(DP.getLaunchDraft);
export const deleteLaunchDraft = call<typeof drafts.deleteLaunchDraft>(DP.deleteLaunchDraft);
