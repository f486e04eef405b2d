// Signing rooms: a capability for ONE party of ONE flow, from a link login (the party's phone proven by an
// SMS code), from a logged-in user who is that party, or from an integrator's embedded-signing URL (the
// integrator vouches for the person it shows it to; the phone is not proven). Every room call names the room
// by its token, so a room can never act for another party or flow. What a room may do beyond signing with its
// party's intent check (make an account, record a real name, issue a certificate, log the browser in) depends
// on how its phone was proven (issue 23, see SECURITY.md).
import type { Actor } from '../../lib/actor.ts';
import { createHash, randomBytes } from 'node:crypto';
import type { RoomLogin, SigningRoom } from '#contract/calls/flow.ts';
import { appliesCompanySeal } from '#contract/rules/seal-needs.ts';
import { SEAL_IMAGE_PATH } from '#contract/calls/seal.ts';
import { Code } from '#contract/codes.ts';
import { SmsPurpose, UserType } from '#contract/enums.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { Lang } from '../../http/texts.ts';
import type { AuditActor, AuditEvent } from '../audit/index.ts';
import { appendAudit } from '../audit/index.ts';
import { flowDocuments, presentDocument } from '../document/index.ts';
import { pkiFor } from '../pki/index.ts';
import { sealsUsableBy } from '../seal/index.ts';
import { findUserById, findUserByPhone } from '../session/index.ts';
import { consumeSmsCode, sendSmsCode } from '../session/index.ts';
import {
  type Flow,
  type Party,
  appliesOf,
  findFlow,
  findParty,
  hashLinkCode,
  maskPhone,
  presentParty,
  summaries,
} from './model.ts';
import { flowAccess } from './access.ts';
import { expireIfDue } from './end.ts';
import { type Exec, dateOf } from '../../db/sql-helpers.ts';
import { onboardingOf } from './onboarding.ts';
import * as q from './queries.ts';
import { nothingAfterCommit, storeFlowEvent } from './events.ts';
import { F } from './texts.ts';
import { presentField } from './fields.ts';
import { fieldsOfParty } from './fields-queries.ts';

/** How long a room token lives. */
const ROOM_TTL_MS = 2 * 60 * 60 * 1000;

export type Room = {
  tokenHash: string;
  partyId: string;
  flowId: string;
  /** The person acting in the room; null when the verified phone has no account. */
  userId: string | null;
  phone: string;
  /** The room made the account of its phone (onboarding): a link room may then log this browser in. */
  madeAccount: boolean;
  /** How the room was opened. Only a link room ever logs a browser in. */
  via: RoomVia;
  /**
   * How its phone was proven in this browser: a code sent to it ('sms', at the link login or in the room),
   * the logged-in account of that phone ('session'), an integrator key the platform trusts to assert
   * identities ('apiKey'); null: not proven (an embedded room), so the room may not onboard.
   */
  phoneProof: PhoneProof | null;
  /** The integrator key that asked the embedded-signing URL (audit). */
  apiKeyId: string | null;
};

type RoomVia = 'link' | 'session' | 'embed';
type PhoneProof = 'sms' | 'session' | 'apiKey';

/** The scope of the SMS codes a room asks (session module): its party's alone (issue 23, L1 and M2). */
export const roomSmsScope = (partyId: string) => `party:${partyId}`;

/** Whether the room may make an account, write an identity or issue a certificate for its phone. */
export const isPhoneProven = (room: Room) => room.phoneProof !== null;

const hashToken = (t: string) => createHash('sha256').update(`room:${t}`).digest('hex');

async function createRoom(
  deps: AppDeps,
  party: Party,
  userId: string | null,
  phone: string,
  how: { via: RoomVia; phoneProof: PhoneProof | null; apiKeyId?: string | null },
): Promise<RoomLogin> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + ROOM_TTL_MS);
  await q.insertRoomToken(deps.db, {
    tokenHash: hashToken(token),
    partyId: party.id,
    userId,
    phone,
    now,
    expiresAt,
    via: how.via,
    phoneProof: how.phoneProof,
    apiKeyId: how.apiKeyId ?? null,
  });
  return {
    roomToken: token,
    expiresAt: expiresAt.toISOString(),
    flowId: party.flowId,
    partyId: party.id,
    linkType: party.linkType,
  };
}

/** The room of a token; 1313 when unknown or expired. */
export async function roomOf(deps: AppDeps, token: string): Promise<Room> {
  const r = await q.findRoomToken(deps.db, hashToken(token));
  if (!r || dateOf(r.expiresAt).getTime() <= deps.clock.now().getTime())
    throw new AppError(Code.RoomTokenInvalid, F.roomTokenInvalid);
  // A room opened before its phone had an account acts as the account made since (in another room of the
  // same phone, say): the phone was proven either way.
  const userId = r.userId ?? (await findUserByPhone(deps.db, r.phone))?.id ?? null;
  return {
    tokenHash: r.tokenHash,
    partyId: r.partyId,
    flowId: r.flowId,
    userId,
    phone: r.phone,
    madeAccount: r.madeAccount,
    via: r.via as RoomVia,
    phoneProof: r.phoneProof as PhoneProof | null,
    apiKeyId: r.apiKeyId,
  };
}

async function partyOfLink(deps: AppDeps, linkType: number, linkCode: string, phone: string): Promise<Party> {
  const partyId = await q.partyIdOfLink(deps.db, hashLinkCode(linkCode));
  const party = partyId ? await findParty(deps.db, partyId) : undefined;
  // One answer for an unknown link and a wrong phone: the link alone tells nothing about the party.
  if (!party || party.linkType !== linkType || party.phone !== phone)
    throw new AppError(Code.LinkInvalid, F.linkInvalid);
  return party;
}

/** Step 1 of a link login: an SMS code to the party's phone (only when the phone is the party's). */
export async function sendLinkCode(
  deps: AppDeps,
  b: { linkType: number; linkCode: string; phone: string },
  ip: string,
) {
  const party = await partyOfLink(deps, b.linkType, b.linkCode, b.phone);
  return sendSmsCode(deps, b.phone, SmsPurpose.RoomLogin, ip, roomSmsScope(party.id));
}

/** Step 2: the code proves the phone; the room acts as the account of that phone, if any. */
export async function loginByLink(
  deps: AppDeps,
  b: { linkType: number; linkCode: string; phone: string; smsCode: string },
  ip = '',
): Promise<RoomLogin> {
  const party = await partyOfLink(deps, b.linkType, b.linkCode, b.phone);
  await consumeSmsCode(deps, b.phone, SmsPurpose.RoomLogin, b.smsCode, ip, roomSmsScope(party.id));
  const user = await findUserByPhone(deps.db, b.phone);
  return createRoom(deps, party, user?.id ?? null, b.phone, { via: 'link', phoneProof: 'sms' });
}

/** A logged-in user opens the room of a party they are (flowAccess decides; another party is NotFound). */
export async function loginBySession(deps: AppDeps, session: Actor, flowId: string, partyId: string) {
  const access = await flowAccess(deps, { session }, flowId);
  if (!access.partyIds.includes(partyId)) throw new AppError(Code.NotFound, F.partyNotFound);
  const party = (await findParty(deps.db, partyId))!;
  const user = await findUserById(deps.db, session.userId);
  return createRoom(deps, party, session.userId, user!.phone, { via: 'session', phoneProof: 'session' });
}

/** How long an embedded-signing URL may wait to be opened; the room it opens then lives ROOM_TTL_MS. */
const EMBED_LINK_TTL_MS = 10 * 60 * 1000;

const hashEmbedCode = (c: string) => createHash('sha256').update(`embed:${c}`).digest('hex');

/**
 * Embedded signing (issue 13): the flow's initiator asks for a one-time URL that opens one party's signing
 * room without a login, e.g. inside the partner's iframe. The partner vouches for the person it shows the
 * URL to; the room stays bound to the party's phone, so the intent check (an SMS code to that phone, face or
 * signing password) still proves the signer. Only a party that can sign now gets one. The phone is NOT
 * proven by the URL (issue 23): the room onboards only after a code in the room proves it, unless the
 * asking key is one the platform trusts to assert identities (`key.assertsIdentity`).
 */
export async function createEmbedLink(
  deps: AppDeps,
  session: Actor,
  b: { flowId: string; partyId: string; fromPtCode?: string },
  key?: { keyId: string; assertsIdentity: boolean },
): Promise<{ url: string; expiresAt: string }> {
  const access = await flowAccess(deps, { session }, b.flowId);
  if (!access.isInitiator) throw new AppError(Code.NotFound, F.flowNotFound);
  const party = await findParty(deps.db, b.partyId);
  if (!party || party.flowId !== b.flowId) throw new AppError(Code.NotFound, F.partyNotFound);
  await expireIfDue(deps, b.flowId);
  const refusal = signRefusal((await findFlow(deps.db, b.flowId))!, party, deps.clock.now());
  if (refusal) throw refusal;
  const code = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + EMBED_LINK_TTL_MS);
  await q.insertEmbedLink(deps.db, {
    codeHash: hashEmbedCode(code),
    partyId: party.id,
    now,
    expiresAt,
    apiKeyId: key?.keyId ?? null,
    assertsIdentity: key?.assertsIdentity ?? false,
  });
  const query = new URLSearchParams({ code, ...(b.fromPtCode ? { fromPtCode: b.fromPtCode } : {}) });
  return {
    url: `${deps.config.publicUrl}/#/embed/sign?${query.toString()}`,
    expiresAt: expiresAt.toISOString(),
  };
}

/**
 * Opens the room of an embedded-signing URL: once, before it expires. The room signs as the account of the
 * party's phone, with the party's intent check; its phone counts as proven only when the asking key is
 * trusted to assert identities. It never logs the browser in (no cookie is set by any room call of it).
 */
export async function loginByEmbed(deps: AppDeps, b: { embedCode: string }): Promise<RoomLogin> {
  const link = await q.spendEmbedLink(deps.db, hashEmbedCode(b.embedCode), deps.clock.now());
  const party = link ? await findParty(deps.db, link.partyId) : undefined;
  if (!link || !party) throw new AppError(Code.LinkInvalid, F.embedLinkInvalid);
  const user = await findUserByPhone(deps.db, party.phone);
  return createRoom(deps, party, user?.id ?? null, party.phone, {
    via: 'embed',
    phoneProof: link.assertsIdentity ? 'apiKey' : null,
    apiKeyId: link.apiKeyId,
  });
}

/**
 * roomProvePhone: a code sent to the room's phone (sendSignSmsCode, purpose 'roomLogin', this party's scope)
 * proves the phone in this room, which may then onboard (issue 23). Still no session for an embedded room.
 */
export async function provePhone(deps: AppDeps, room: Room, smsCode: string, ip: string): Promise<Room> {
  const { flow, party } = await roomState(deps, room);
  const refusal = signRefusal(flow, party, deps.clock.now());
  if (refusal) throw refusal;
  if (isPhoneProven(room)) return room;
  await consumeSmsCode(deps, room.phone, SmsPurpose.RoomLogin, smsCode, ip, roomSmsScope(party.id));
  const userId = room.userId ?? (await findUserByPhone(deps.db, room.phone))?.id ?? null;
  await q.setRoomPhoneProven(deps.db, room.tokenHash, userId);
  deps.log.info({ partyId: party.id, via: room.via }, 'signing room: phone proven by an SMS code');
  return { ...room, userId, phoneProof: 'sms' };
}

/** The room's party and flow, fresh, after expiring the flow if its deadline passed. */
export async function roomState(deps: AppDeps, room: Room): Promise<{ flow: Flow; party: Party }> {
  await expireIfDue(deps, room.flowId);
  const [flow, party] = await Promise.all([findFlow(deps.db, room.flowId), findParty(deps.db, room.partyId)]);
  if (!flow || !party) throw new AppError(Code.NotFound, F.flowNotFound);
  return { flow, party };
}

/** Why the party cannot sign now, or null when it can. */
export function signRefusal(flow: Flow, party: Party, now: Date): AppError | null {
  if (party.status === 'signed') return new AppError(Code.AlreadySigned, F.alreadySigned);
  if (
    flow.status === 'expired' ||
    (flow.status === 'signing' && dateOf(flow.deadline).getTime() <= now.getTime())
  )
    return new AppError(Code.DeadlinePassed, F.deadlinePassed);
  if (flow.status !== 'signing') return new AppError(Code.FlowClosed, F.flowClosed(flow.status));
  // Held for the company's launch approval (issue 27): nobody signs before it is sent.
  if (flow.heldForApproval) return new AppError(Code.LaunchApprovalRequired, F.launchHeld);
  if (party.status === 'waiting') return new AppError(Code.NotYourTurn, F.notYourTurn);
  if (party.status !== 'pending') return new AppError(Code.FlowClosed, F.flowClosed(flow.status));
  return null;
}

/** The audit identity of a room's signer. */
export async function roomActor(
  deps: AppDeps,
  room: Room,
  party: Party,
  req: { ip?: string; userAgent?: string | null },
  /** The room's user when the caller has already read it. */
  known?: { id: string; name: string | null },
): Promise<AuditActor> {
  // An unproven room's entries name the party as launched (not the account's real name: the launcher reads
  // them); a signature names its signer (`known`), whom the intent check proved.
  const user =
    known && known.id === room.userId
      ? known
      : room.userId && isPhoneProven(room)
        ? await findUserById(deps.db, room.userId)
        : undefined;
  return {
    actor: user?.name ?? party.name ?? maskPhone(room.phone),
    actorPhone: room.phone,
    actorCompany: party.companyName,
    ip: req.ip ?? null,
    userAgent: req.userAgent ?? null,
  };
}

/** Appends the same event to every document chain of the flow (view, sms_sent, download). */
export async function auditFlowEvent(
  deps: AppDeps,
  flowId: string,
  event: 'view' | 'sms_sent' | 'download',
  actor: AuditActor,
  detail: string | null,
  documentId?: string,
): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction((tx: Exec) =>
    auditEveryDocument(tx, { flowId, event, actor, detail, at: now, documentId }),
  );
}

/** In `tx`: the same event on every document chain of the flow (or only `documentId`'s), no document changed. */
export async function auditEveryDocument(
  tx: Exec,
  e: {
    flowId: string;
    event: AuditEvent;
    actor: AuditActor;
    detail: string | null;
    at: Date;
    documentId?: string;
  },
): Promise<void> {
  for (const d of await flowDocuments(tx, e.flowId)) {
    if (e.documentId && d.id !== e.documentId) continue;
    await appendAudit(tx, {
      ...e.actor,
      flowId: e.flowId,
      documentId: d.id,
      event: e.event,
      detail: e.detail,
      at: e.at,
      hashBefore: d.currentSha256,
      hashAfter: d.currentSha256,
    });
  }
}

/** Seals the room's signer may use now, as the signing room lists them. */
async function usableSeals(deps: AppDeps, room: Room, party: Party): Promise<SigningRoom['seals']> {
  if (!room.userId) return [];
  const seals = await sealsUsableBy(deps, {
    userId: room.userId,
    companyId: party.kind === 'company' ? party.companyId : null,
    personal: party.kind === 'person' || appliesOf(party).personSignature,
  });
  return seals.map((s) => ({
    sealId: s.id,
    name: s.name,
    sealType: s.sealType,
    pngUrl: `${SEAL_IMAGE_PATH}/${s.id}.png`,
    widthMm: s.widthMm,
    heightMm: s.heightMm,
    ...(s.grant ? { grant: s.grant } : {}),
  }));
}

/** Whether the account that would sign for the party has a current certificate. */
async function hasSigningCertificate(deps: AppDeps, room: Room, party: Party): Promise<boolean> {
  if (!room.userId) return false;
  const pki = await pkiFor(deps);
  const holder =
    party.kind === 'company'
      ? { userType: UserType.Company, accountId: party.companyId! }
      : { userType: UserType.Person, accountId: room.userId };
  return (await pki.current(holder)) !== undefined;
}

export async function getRoom(
  deps: AppDeps,
  room: Room,
  lang: Lang,
  req: { ip?: string; userAgent?: string | null },
  /** The room's token: the attachment links of its fields carry it. */
  roomToken?: string,
): Promise<SigningRoom> {
  const { flow, party } = await roomState(deps, room);
  const docs = await flowDocuments(deps.db, flow.id);
  const [summary] = await summaries(deps.db, [flow]);
  const refusal = signRefusal(flow, party, deps.clock.now());
  const applies = appliesOf(party);
  const user = room.userId ? await findUserById(deps.db, room.userId) : undefined;
  await auditFlowEvent(deps, flow.id, 'view', await roomActor(deps, room, party, req), viewDetail(room));
  // The first view and its event are stored together (an outbox); the deliveries are queued after.
  // (A party seen opened already skips the transaction; the conditional UPDATE decides between racers.)
  if (!party.openedAt) {
    const afterCommit = await deps.db.transaction(async (tx) =>
      (await q.markPartyMoment(tx, party.id, 'openedAt', deps.clock.now()))
        ? storeFlowEvent(deps, tx, 'party.opened', flow, { party })
        : nothingAfterCommit,
    );
    await afterCommit();
  }
  return {
    flow: { ...summary, message: flow.message },
    party: presentParty(party),
    documents: docs.map((d) => presentDocument(d, flow.status)),
    canSign: refusal === null,
    cannotSignReason: refusal ? (typeof refusal.text === 'string' ? refusal.text : refusal.text[lang]) : null,
    signer: {
      // The account's real name only once the phone is proven here: an embedded room's launcher (any API key)
      // must not learn whose phone it typed.
      name: isPhoneProven(room) ? (user?.name ?? null) : null,
      phoneMasked: maskPhone(room.phone),
      hasCertificate: await hasSigningCertificate(deps, room, party),
    },
    seals: await usableSeals(deps, room, party),
    needs: {
      companySeal: party.kind === 'company' && appliesCompanySeal(applies),
      legalPersonSeal: party.kind === 'company' && applies.legalPersonSeal,
      personSignature: applies.personSignature,
    },
    onboarding: await onboardingOf(deps, room, party),
    fields: (await fieldsOfParty(deps.db, party.id)).map((f) => presentField(f, roomToken)),
  };
}

/** The audit detail of a room view: how the room was opened, and for an embedded one the key behind it. */
function viewDetail(room: Room): string {
  if (room.via !== 'embed') return 'signing room opened';
  const asserted = room.phoneProof === 'apiKey' ? ', identity asserted by the key' : '';
  return `signing room opened · embedded (API key ${room.apiKeyId ?? 'none'}${asserted})`;
}

/** The SMS codes a room asks: what each proves, and its audit detail. */
const ROOM_CODES = {
  sign: { purpose: SmsPurpose.Sign, detail: 'signing code' },
  signingPassword: { purpose: SmsPurpose.SigningPassword, detail: 'signing password code' },
  roomLogin: { purpose: SmsPurpose.RoomLogin, detail: 'phone proof code' },
} as const;

export async function sendSignCode(
  deps: AppDeps,
  room: Room,
  ip: string,
  req: { userAgent?: string | null },
  purpose: keyof typeof ROOM_CODES = 'sign',
) {
  const { flow, party } = await roomState(deps, room);
  const refusal = signRefusal(flow, party, deps.clock.now());
  if (refusal) throw refusal;
  if (purpose === 'roomLogin' && isPhoneProven(room)) throw new AppError(Code.Refused, F.phoneAlreadyProven);
  const code = ROOM_CODES[purpose];
  const sent = await sendSmsCode(deps, room.phone, code.purpose, ip, roomSmsScope(party.id));
  await auditFlowEvent(
    deps,
    flow.id,
    'sms_sent',
    await roomActor(deps, room, party, { ip, ...req }),
    code.detail,
  );
  return { ...sent, phoneMasked: maskPhone(room.phone) };
}
