import type { PadStrokes } from '@/components/signature-pad.tsx';

/**
 * What a party did in the room before it left for the room's onboarding (phone, real name, agreement,
 * certificate): the signature it drew, and that it went to onboard. The room shows the same drawing when it
 * comes back and says "you're verified, now sign".
 *
 * Kept in this page's memory, by party, on purpose: the onboarding is a route change inside the same page,
 * so memory lasts long enough, and it works where storage throws (a room framed by another site with
 * storage partitioned or blocked). A reload loses it, as a reload loses any unsaved drawing.
 */
type RoomDraft = { strokes: PadStrokes; isOnboarding: boolean };

const drafts = new Map<string, RoomDraft>();

const draftOf = (partyId: string): RoomDraft => drafts.get(partyId) ?? { strokes: [], isOnboarding: false };

/** The strokes the party drew last in this page (none when it has not drawn). */
export const keptStrokes = (partyId: string): PadStrokes => draftOf(partyId).strokes;

export function keepStrokes(partyId: string, strokes: PadStrokes): void {
  drafts.set(partyId, { ...draftOf(partyId), strokes });
}

/** The party leaves the room for its onboarding steps. */
export function markOnboarding(partyId: string): void {
  drafts.set(partyId, { ...draftOf(partyId), isOnboarding: true });
}

/** Whether the party went to onboard from the room and has not been told since it came back; tells once. */
export function takeOnboardingReturn(partyId: string): boolean {
  const draft = draftOf(partyId);
  if (draft.isOnboarding) drafts.set(partyId, { ...draft, isOnboarding: false });
  return draft.isOnboarding;
}

/** The party signed: nothing to keep. */
export function forgetRoomDraft(partyId: string): void {
  drafts.delete(partyId);
}
