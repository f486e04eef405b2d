/**
 * Which company seals fill a signing party's company-seal slot, for both sides at runtime (no zod here, so the
 * signing room may import it): the server checks a signature with it, the room and the launch screen offer
 * seals by it.
 */
import { SealType } from '../enums.ts';

/** What a party applies, as far as its company seal goes (zApplies in contract/calls/flow.ts). */
type SealNeeds = { companySealType?: number | null; anyCompanySeal?: boolean };

/** Whether a party applies a company seal: of its companySealType, or of any type (anyCompanySeal). */
export const appliesCompanySeal = (a: SealNeeds): boolean => !!a.companySealType || a.anyCompanySeal === true;

/**
 * Whether a company seal of `sealType` fills the party's company-seal slot: its companySealType, or with
 * anyCompanySeal any company seal but the legal-person seal (that one has its own slot). False for a party
 * that applies no company seal, and for person seals (type null).
 */
export function fitsCompanySeal(a: SealNeeds, sealType: number | null): boolean {
  if (!appliesCompanySeal(a) || sealType === null || sealType === SealType.LegalPerson) return false;
  return a.anyCompanySeal === true || sealType === a.companySealType;
}
