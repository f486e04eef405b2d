// The signing room's calls on the party's own fields (issue 28): saveRoomFields (a draft, every value checked by
// the rule the room runs), uploadRoomAttachment and removeRoomAttachment; all refused while the party may not
// sign, as signDocument is. A field of another party is 1101.
import { createHash } from 'node:crypto';
import type { FlowField } from '#contract/calls/fields.ts';
import { Code } from '#contract/codes.ts';
import { FIELD_LIMITS, type FieldValue } from '#contract/rules/fields.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { checked, fieldRefusal, presentField, stored } from './fields.ts';
import * as fq from './fields-queries.ts';
import { type Room, roomState, signRefusal } from './room.ts';
import { F } from './texts.ts';

/** The room's party, only while it may sign (the refusals signDocument gives). */
async function signingParty(deps: AppDeps, room: Room) {
  const { flow, party } = await roomState(deps, room);
  const refusal = signRefusal(flow, party, deps.clock.now());
  if (refusal) throw refusal;
  return { flow, party };
}

/** A field of the room's party; 1101 for any other. */
export async function ownField(deps: AppDeps, room: Room, fieldId: string): Promise<fq.FieldRow> {
  const f = await fq.findField(deps.db, fieldId);
  if (!f || f.partyId !== room.partyId) throw new AppError(Code.NotFound, F.fieldNotFound);
  return f;
}

/** saveRoomFields: every value checked first (nothing saved when one is refused), then saved as a draft. */
export async function saveFields(
  deps: AppDeps,
  room: Room,
  values: Record<string, FieldValue | null>,
  roomToken: string,
): Promise<{ fields: FlowField[] }> {
  await signingParty(deps, room);
  const mine = await fq.fieldsOfParty(deps.db, room.partyId);
  const now = deps.clock.now();
  const toSave: { id: string; value: string | null }[] = [];
  for (const [id, raw] of Object.entries(values)) {
    const f = mine.find((x) => x.id === id);
    if (!f) throw new AppError(Code.NotFound, F.fieldNotFound);
    if (f.signedAt) throw fieldRefusal(f.label, F.fieldSigned, f.id);
    // A draft may stay empty: a required field is insisted on when signing, not while typing.
    const value = checked({ ...f, isRequired: false }, raw, now);
    if (f.kind === 'signDate' || f.kind === 'attachment') continue;
    toSave.push({ id, value: stored(value) });
  }
  await deps.db.transaction(async (tx) => {
    for (const v of toSave)
      if (!(await fq.saveValue(tx, room.partyId, v.id, v.value, now)))
        throw new AppError(Code.Refused, F.fieldSigned);
  });
  return {
    fields: (await fq.fieldsOfParty(deps.db, room.partyId)).map((r) => presentField(r, roomToken)),
  };
}

/** The media type of an attachment, judged by its first bytes (PNG, JPEG, PDF), or null. */
export function sniffAttachment(bytes: Uint8Array): (typeof ATTACHMENT_SNIFF)[number]['type'] | null {
  for (const s of ATTACHMENT_SNIFF) if (s.magic.every((b, i) => bytes[i] === b)) return s.type;
  return null;
}
const ATTACHMENT_SNIFF = [
  { type: 'image/png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', magic: [0xff, 0xd8, 0xff] },
  { type: 'application/pdf', magic: [0x25, 0x50, 0x44, 0x46, 0x2d] },
] as const;

/** A file name kept short and printable (it is written into the PDF). */
function cleanName(name: string, mediaType: string): string {
  const base = name
    .replace(/^.*[\\/]/, '')
    .split('')
    .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f)
    .join('')
    .trim()
    .slice(-80);
  if (base) return base;
  return mediaType === 'application/pdf'
    ? 'attachment.pdf'
    : mediaType === 'image/png'
      ? 'image.png'
      : 'image.jpg';
}

/** uploadRoomAttachment: a PNG, JPEG or PDF (by its bytes), at most 10 MB, replacing an earlier one. */
export async function uploadAttachment(
  deps: AppDeps,
  room: Room,
  fieldId: string,
  file: { bytes: Uint8Array; filename: string } | null,
  roomToken: string,
): Promise<FlowField> {
  await signingParty(deps, room);
  const f = await ownField(deps, room, fieldId);
  if (f.kind !== 'attachment') throw fieldRefusal(f.label, F.fieldNotAttachment, f.id);
  if (f.signedAt) throw fieldRefusal(f.label, F.fieldSigned, f.id);
  if (!file || file.bytes.length === 0) throw fieldRefusal(f.label, F.attachmentEmpty, f.id);
  if (file.bytes.length > FIELD_LIMITS.attachmentBytes)
    throw fieldRefusal(f.label, F.attachmentTooLarge(FIELD_LIMITS.attachmentBytes / 1024 / 1024), f.id);
  const mediaType = sniffAttachment(file.bytes);
  if (!mediaType) throw fieldRefusal(f.label, F.attachmentWrongType, f.id);
  const key = await deps.storage.put(file.bytes);
  const row = await fq.setAttachment(
    deps.db,
    room.partyId,
    f.id,
    {
      key,
      name: cleanName(file.filename, mediaType),
      mediaType,
      size: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
    },
    deps.clock.now(),
  );
  if (!row) throw fieldRefusal(f.label, F.fieldSigned, f.id);
  return presentField(row, roomToken);
}

/** removeRoomAttachment: the field's attachment removed before signing. */
export async function removeAttachment(
  deps: AppDeps,
  room: Room,
  fieldId: string,
  roomToken: string,
): Promise<FlowField> {
  await signingParty(deps, room);
  const f = await ownField(deps, room, fieldId);
  if (f.kind !== 'attachment') throw fieldRefusal(f.label, F.fieldNotAttachment, f.id);
  const row = await fq.setAttachment(deps.db, room.partyId, f.id, null, deps.clock.now());
  if (!row) throw fieldRefusal(f.label, F.fieldSigned, f.id);
  return presentField(row, roomToken);
}

/** The field of an attachment download (its flow's readers decide; the caller checks flowAccess). */
export async function attachmentOf(
  deps: AppDeps,
  fieldId: string,
): Promise<{ field: fq.FieldRow; bytes: Uint8Array } | null> {
  const f = await fq.findField(deps.db, fieldId);
  if (!f?.attachmentKey) return null;
  const bytes = await deps.storage.get(f.attachmentKey);
  return bytes ? { field: f, bytes } : null;
}
