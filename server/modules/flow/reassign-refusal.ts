// The refusal an old signing link or room gets after its party was handed over (issue 29, reassign.ts): it
// names to whom, rather than "invalid link". room.ts asks it; SQL: reassign-queries.ts.
import { Code } from '#contract/codes.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { maskPhone } from './model.ts';
import * as rq from './reassign-queries.ts';
import { R } from './reassign-texts.ts';

/** A signer as the notices and the audit trail name them: name and masked phone. */
export const signerLabel = (name: string | null, phone: string) => `${name ?? ''} ${maskPhone(phone)}`.trim();

/**
 * The refusal an old link or room gets after its party was handed over (room.ts asks): "handed over to …",
 * or null when the link or room was never taken away by a reassignment.
 */
export async function handedOverRefusal(
  deps: AppDeps,
  what: { linkHash: string } | { partyId: string; phone: string },
): Promise<AppError | null> {
  if ('linkHash' in what) {
    const r = await rq.reassignmentOfLink(deps.db, what.linkHash);
    return r ? new AppError(Code.LinkInvalid, R.linkHandedOver(signerLabel(r.toName, r.toPhone))) : null;
  }
  const r = await rq.reassignmentAwayFrom(deps.db, what.partyId, what.phone);
  return r ? new AppError(Code.RoomTokenInvalid, R.roomHandedOver(signerLabel(r.toName, r.toPhone))) : null;
}
