import { paths } from '@/config/paths.ts';

export { isPhoneDevice } from '@/lib/device.ts';

/** Which room a transition opens: `room=step` (step-by-step) or `room=temp` (from a template), else the plain one. */
type RoomKind = 'sign' | 'step' | 'temp';

function roomKindOf(search: URLSearchParams): RoomKind {
  const room = search.get('room');
  return room === 'step' || room === 'temp' ? room : 'sign';
}

/**
 * /signingRoomTransition: phones go to /h5/v1/signing_room (step_room, tempOutSignRoom), desktops to
 * /pc/v1/signing_room (tempSigning_room; a desktop has no step room: it shows every step in one). The room's
 * identity (flowId, partyId, room) passes along in the query.
 */
export function transitionTarget(search: URLSearchParams, isPhone: boolean): string {
  const kind = roomKindOf(search);
  const path = isPhone
    ? kind === 'step'
      ? paths.h5StepRoom
      : kind === 'temp'
        ? paths.h5TempOutSignRoom
        : paths.h5SigningRoom
    : kind === 'temp'
      ? paths.pcTempSigningRoom
      : paths.pcSigningRoom;
  const query = new URLSearchParams();
  for (const key of ['flowId', 'partyId', 'room']) {
    const v = search.get(key);
    if (v) query.set(key, v);
  }
  const q = query.toString();
  return q ? `${path}?${q}` : path;
}
