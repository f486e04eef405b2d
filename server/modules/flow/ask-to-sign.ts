// A party's turn comes (launch's first step, the next step after a signature): either its link is sent, or,
// when an automatic-signing letter of its company covers the flow (issue 27, 静默签), the automatic signature is
// queued as a durable job (auto-sign.ts) and no link is sent.
import { appliesCompanySeal, fitsCompanySeal } from '#contract/rules/seal-needs.ts';
import type { AppDeps } from '../../deps.ts';
import { autoSignCover } from './hooks.ts';
import { type Flow, type Party, appliesOf, sendLink } from './model.ts';

/** The job that seals a party automatically: data `{flowId, partyId, letterId}`, one waiting job per party. */
export const AUTO_SIGN_JOB = 'flow.autoSign';

/**
 * The letter that covers the party now: a company party whose company is open, that applies a company seal
 * only (no legal-person seal, no personal signature) which the letter's seal fills, in a flow from a template
 * or an API key the letter names. Null otherwise.
 */
export async function autoSignCoverOf(deps: AppDeps, flow: Flow, party: Party, letterId?: string) {
  if (party.kind !== 'company' || !party.companyId || (!flow.templateId && !flow.apiKeyId)) return null;
  const applies = appliesOf(party);
  if (!appliesCompanySeal(applies) || applies.legalPersonSeal || applies.personSignature) return null;
  const answers = await deps.hooks.collect(autoSignCover, {
    deps,
    companyId: party.companyId,
    templateId: flow.templateId ?? null,
    apiKeyId: flow.apiKeyId ?? null,
    sealFits: (t) => fitsCompanySeal(applies, t),
    letterId,
  });
  return answers.find((a) => a !== null) ?? null;
}

/** Asks the party to sign: its link, or the automatic signature when a letter covers it. */
export async function askToSign(deps: AppDeps, flow: Flow, party: Party): Promise<void> {
  const cover = await autoSignCoverOf(deps, flow, party);
  if (cover) {
    await deps.jobs.send(
      AUTO_SIGN_JOB,
      { flowId: flow.id, partyId: party.id, letterId: cover.letterId },
      { singletonKey: party.id },
    );
    return;
  }
  await sendLink(deps, flow, party, 'sign_request');
}
