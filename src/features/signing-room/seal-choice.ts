import { fitsCompanySeal } from '#contract/rules/seal-needs.ts';
import { SealType } from '#contract/enums.ts';
import type { RoomSeal, SigningRoom } from '@/api/flow.ts';

const LEGAL_PERSON_SEAL_TYPE = SealType.LegalPerson;

/** What the signer picks: a saved seal per slot, or a drawing for the person signature. */
export type SealChoice = {
  companySealId?: string;
  legalPersonSealId?: string;
  personSealId?: string;
  /** The person signature is drawn now instead of a saved seal. */
  isDrawing?: boolean;
};

/** The seals of the room that fit each slot the party must fill. */
export function sealsBySlot(room: Pick<SigningRoom, 'seals' | 'party'>): {
  company: RoomSeal[];
  legalPerson: RoomSeal[];
  person: RoomSeal[];
} {
  const applies = room.party.applies;
  // The launcher's type; or, where the launcher did not insist on it, every company seal the signer may use,
  // the type the launcher offered first (else the official seal) at the top.
  const rank = (s: RoomSeal) =>
    s.sealType === applies.companySealType ? 0 : s.sealType === SealType.Official ? 1 : 2;
  return {
    company: room.seals.filter((s) => fitsCompanySeal(applies, s.sealType)).sort((a, b) => rank(a) - rank(b)),
    legalPerson: room.seals.filter((s) => s.sealType === LEGAL_PERSON_SEAL_TYPE),
    person: room.seals.filter((s) => s.sealType === null),
  };
}

/** A first choice: the only (or first) seal of each slot; a person with no saved signature draws one. */
export function defaultChoice(room: Pick<SigningRoom, 'seals' | 'party' | 'needs'>): SealChoice {
  const slots = sealsBySlot(room);
  return {
    companySealId: room.needs.companySeal ? slots.company[0]?.sealId : undefined,
    legalPersonSealId: room.needs.legalPersonSeal ? slots.legalPerson[0]?.sealId : undefined,
    personSealId: room.needs.personSignature ? slots.person[0]?.sealId : undefined,
    isDrawing: room.needs.personSignature && slots.person.length === 0,
  };
}

/** Which slot is still empty, or null when the choice is complete (the drawing itself is checked at signing). */
export function missingSlot(
  room: Pick<SigningRoom, 'needs'>,
  choice: SealChoice,
): 'companySeal' | 'legalPersonSeal' | 'personSignature' | null {
  if (room.needs.companySeal && !choice.companySealId) return 'companySeal';
  if (room.needs.legalPersonSeal && !choice.legalPersonSealId) return 'legalPersonSeal';
  if (room.needs.personSignature && !choice.isDrawing && !choice.personSealId) return 'personSignature';
  return null;
}

/** Base64 of a PNG blob without the data: prefix (what signDocument takes). */
export async function blobToBase64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk)
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}
