// Automatic signing (静默签, issue 27): a company party whose turn came under an automatic-signing letter
// (ask-to-sign.ts queued this job) is sealed with nobody in the room: the company's own certificate, the
// letter's seal at the party's positions, exactly the room's signing otherwise (signPartyDocuments: one
// incremental update per document, time-stamp, the flow moved on, events, completion). One use of the letter is
// counted in the transaction of the party's first signature, never past its count. A letter found revoked,
// expired or used up, or anything that stops the signature, sends the party its normal link instead.
import { UserType } from '#contract/enums.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { signerFromPki } from '../../pdf/sign/cms.ts';
import { sealForSigning } from '../seal/index.ts';
import { findUserById } from '../session/index.ts';
import { autoSignCoverOf } from './ask-to-sign.ts';
import { useLetter } from './hooks.ts';
import { appliesOf, findFlow, findParty, sendLink } from './model.ts';
import { signRefusal } from './room.ts';
import type { FlowRuntime } from './runtime.ts';
import { type Prepared, appearanceOf, signPartyDocuments, signingMaterial } from './signing.ts';

/** The letter stopped covering the party between the job's check and the signing transaction. */
class LetterNotInForce extends Error {}

/** Seals the party automatically under the letter, or sends it its link when the letter no longer covers it. */
export async function autoSign(
  deps: AppDeps,
  rt: FlowRuntime,
  data: { flowId: string; partyId: string; letterId: string },
): Promise<void> {
  const [flow, party] = await Promise.all([findFlow(deps.db, data.flowId), findParty(deps.db, data.partyId)]);
  // Signed, refused, cancelled or expired meanwhile: nothing to do (a job run again after a crash lands here).
  if (!flow || !party || signRefusal(flow, party, deps.clock.now())) return;
  const askAPerson = () => sendLink(deps, flow, party, 'sign_request').then(() => undefined);
  const cover = await autoSignCoverOf(deps, flow, party, data.letterId);
  if (!cover || !party.companyId) return askAPerson();
  const companyId = party.companyId;
  try {
    const issuer = await findUserById(deps.db, cover.issuedBy);
    const material = await signingMaterial(deps, rt.materials, {
      userType: UserType.Company,
      accountId: companyId,
    });
    if (!issuer || !material) return askAPerson();
    const seal = await sealForSigning(deps, {
      holder: { userType: 1, companyId, userId: issuer.id },
      sealId: cover.sealId,
    });
    const applies = appliesOf(party);
    const prepared: Prepared = {
      signer: signerFromPki(material),
      certSerial: material.certificate.serial,
      // party_signatures.signer_user_id: the letter's issuer, as the audit entry says.
      signerUserId: issuer.id,
      user: issuer,
      signerName: party.companyName ?? '',
      appearance: await appearanceOf([{ pdf: seal.pdf }], applies.date, deps.clock.now()),
      crossPage: applies.crossPageSeal ? { pdf: seal.pdf } : null,
      sealIds: [seal.sealId],
      // The letter, issued and signed by the company for this seal, is the approval of its uses.
      approvalIds: [],
    };
    await signPartyDocuments(deps, rt, flow, party, prepared, {
      actor: { actor: party.companyName ?? '', actorCompany: party.companyName, ip: null, userAgent: null },
      intent: `intent auto letter ${cover.number} recorded signer ${issuer.id}`,
      reason: `自动签署 Signed automatically under authorisation letter ${cover.number}: ${flow.title}`,
      signedByName: `自动签署 automatic (${cover.number})`,
      async inFirstSignature(tx) {
        const used = await deps.hooks.collect(useLetter, {
          deps,
          tx,
          letterId: cover.letterId,
          now: deps.clock.now(),
        });
        if (!used.includes(true)) throw new LetterNotInForce();
      },
    });
  } catch (err) {
    // The letter ran out, or a refusal of the signature (the seal disabled, the issuer gone, the flow closed
    // meanwhile): a person signs instead. Anything else (the database) fails the job, which is retried.
    if (!(err instanceof LetterNotInForce || err instanceof AppError)) throw err;
    deps.log.info({ flowId: flow.id, partyId: party.id, err: String(err) }, 'automatic signing fell back');
    const fresh = await findParty(deps.db, party.id);
    const now = await findFlow(deps.db, flow.id);
    if (fresh && now && !signRefusal(now, fresh, deps.clock.now())) await askAPerson();
  }
}
