// Typed client of contract/calls/flow.ts (types only from the contract: no zod in the bundle).
import Cookies from 'js-cookie';
import type * as calls from '#contract/calls/flow.ts';
import * as P from '#contract/paths/flow.ts';
import { call, type Req, type Res } from './http.ts';
import { browser } from '@/lib/browser.ts';
import { sessionStore } from '@/lib/safe-storage.ts';

export type {
  Applies,
  FlowDetail,
  FlowSummary,
  IntentCheck,
  PartyView,
  SigningRoom,
} from '#contract/calls/flow.ts';
export type LaunchRequest = Req<typeof calls.launchFlow>;
export type PendingItem = Res<typeof calls.listPendingSignatures>['list'][number];
export type LaunchedItem = Res<typeof calls.listLaunchedFlows>['list'][number];
export type FlowMessage = Res<typeof calls.listMessages>['list'][number];
export type RoomSeal = Res<typeof calls.getSigningRoom>['seals'][number];
export type AuditTrail = Res<typeof calls.getAuditTrail>;
export type Quota = Res<typeof calls.getQuota>;

/** The contract's flow and party states (flow.ts holds zod, so repeated here and typed against it). */
export const FlowStatus = {
  Draft: 'draft',
  Signing: 'signing',
  Completed: 'completed',
  Declined: 'declined',
  Expired: 'expired',
  Cancelled: 'cancelled',
} as const satisfies typeof calls.FlowStatus;
export const PartyStatus = {
  Waiting: 'waiting',
  Pending: 'pending',
  Signed: 'signed',
  Declined: 'declined',
  Closed: 'closed',
} as const satisfies typeof calls.PartyStatus;
export const FLOW_LIMITS = {
  documents: 10,
  steps: 10,
  partiesPerStep: 10,
  parties: 30,
} as const satisfies typeof calls.FLOW_LIMITS;

export const launchFlow = call<typeof calls.launchFlow>(P.launchFlow);
export const getFlowDetail = call<typeof calls.getFlowDetail>(P.getFlowDetail);
export const listLaunchedFlows = call<typeof calls.listLaunchedFlows>(P.listLaunchedFlows);
export const listPendingSignatures = call<typeof calls.listPendingSignatures>(P.listPendingSignatures);
export const cancelFlow = call<typeof calls.cancelFlow>(P.cancelFlow);
export const remindSigners = call<typeof calls.remindSigners>(P.remindSigners);
export const signingRoomLogin = call<typeof calls.signingRoomLogin>(P.signingRoomLogin);
export const sendLinkSmsCode = call<typeof calls.sendLinkSmsCode>(P.sendLinkSmsCode);
export const signingRoomLoginByEmbed = call<typeof calls.signingRoomLoginByEmbed>(P.signingRoomLoginByEmbed);
export const signingRoomLoginByLinkCode = call<typeof calls.signingRoomLoginByLinkCode>(
  P.signingRoomLoginByLinkCode,
);
export const getSigningRoom = call<typeof calls.getSigningRoom>(P.getSigningRoom);
export const sendSignSmsCode = call<typeof calls.sendSignSmsCode>(P.sendSignSmsCode);
export const signDocument = call<typeof calls.signDocument>(P.signDocument);
export const startRoomFaceAuth = call<typeof calls.startRoomFaceAuth>(P.startRoomFaceAuth);
export const setSigningPassword = call<typeof calls.setSigningPassword>(P.setSigningPassword);
/** The intent checks a launcher may choose (contract INTENT_CHECKS). */
export const INTENT_CHECKS = ['sms', 'face', 'password'] as const satisfies typeof calls.INTENT_CHECKS;
export const declineFlow = call<typeof calls.declineFlow>(P.declineFlow);
export const getAuditTrail = call<typeof calls.getAuditTrail>(P.getAuditTrail);
export const listMessages = call<typeof calls.listMessages>(P.listMessages);
export const markMessagesRead = call<typeof calls.markMessagesRead>(P.markMessagesRead);
export const getQuota = call<typeof calls.getQuota>(P.getQuota);
export const roomRealName = call<typeof calls.roomRealName>(P.roomRealName);
export const roomProvePhone = call<typeof calls.roomProvePhone>(P.roomProvePhone);
export const roomAcceptAgreement = call<typeof calls.roomAcceptAgreement>(P.roomAcceptAgreement);
export const roomOpenCompany = call<typeof calls.roomOpenCompany>(P.roomOpenCompany);
export const roomConfirmCompany = call<typeof calls.roomConfirmCompany>(P.roomConfirmCompany);
export const getSignerReadiness = call<typeof calls.getSignerReadiness>(P.getSignerReadiness);
export type SignerReadiness = Res<typeof calls.getSignerReadiness>['signers'][number];
export type RoomOnboarding = Res<typeof calls.roomRealName>;

// The room token is a capability for ONE party, never in the URL (a forwarded or bookmarked room address does
// not carry it). It is kept in this page's memory first: inside a partner's frame on another site the browser
// may refuse storage and cookies altogether, and the room must still work to the end. Where the browser allows,
// it is also kept in session storage (this tab, through a reload) and in a session cookie (the other tabs of
// this browser session, gone when the browser closes): first-party SameSite=Strict; in a frame, where only a
// partitioned cookie survives third-party-cookie blocking, SameSite=None; Secure; Partitioned (shared with
// this partner's site only, and only in a secure context: https, localhost or 127.0.0.1).
const ROOM_KEY = 'signingRoom:';
const ROOM_COOKIE = 'esignRoom_';
type RoomLoginData = Res<typeof calls.signingRoomLogin>;
type KeptRoom = Pick<RoomLoginData, 'roomToken' | 'expiresAt'>;
const roomsInMemory = new Map<string, KeptRoom>();

/** What a new page (another tab, a reload) starts with: no room in memory. For tests of those. */
export function forgetRoomsInMemory(): void {
  roomsInMemory.clear();
}

function roomCookieAttributes(): Cookies.CookieAttributes | null {
  if (!browser.isFramed())
    return { path: '/', sameSite: 'Strict', secure: window.location.protocol === 'https:' };
  // js-cookie writes `; partitioned` for a true attribute it does not know.
  return window.isSecureContext ? { path: '/', sameSite: 'None', secure: true, partitioned: true } : null;
}

/** Keep a room login for this page, this tab and the other tabs of this browser session, where allowed. */
export function saveRoomLogin(login: RoomLoginData): void {
  const kept: KeptRoom = { roomToken: login.roomToken, expiresAt: login.expiresAt };
  roomsInMemory.set(login.partyId, kept);
  sessionStore.setItem(ROOM_KEY + login.partyId, JSON.stringify(kept));
  const attributes = roomCookieAttributes();
  if (!attributes) return;
  try {
    // No expiry: a session cookie. The token's own expiry is checked on read.
    Cookies.set(ROOM_COOKIE + login.partyId, JSON.stringify({ ...kept, partyId: login.partyId }), attributes);
  } catch {
    // cookies refused: memory and this tab's storage still serve
  }
}

function parseKept(raw: string | null | undefined): KeptRoom | null {
  try {
    return raw ? (JSON.parse(raw) as KeptRoom) : null;
  } catch {
    return null;
  }
}

function cookieRoom(partyId: string): KeptRoom | null {
  try {
    return parseKept(Cookies.get(ROOM_COOKIE + partyId));
  } catch {
    return null;
  }
}

/** The room token of a party held by this page, this tab or another tab of this browser session, unless expired. */
export function roomTokenFor(partyId: string, now = Date.now()): string | null {
  const login =
    roomsInMemory.get(partyId) ?? parseKept(sessionStore.getItem(ROOM_KEY + partyId)) ?? cookieRoom(partyId);
  if (!login || !(Date.parse(login.expiresAt) > now)) return null;
  return login.roomToken;
}

/** The query naming a room (flow and party, never the token): what the transition and rooms read. */
export function roomQuery(
  ids: { flowId: string; partyId: string },
  extra: Record<string, string> = {},
): string {
  return `?${new URLSearchParams({ flowId: ids.flowId, partyId: ids.partyId, ...extra }).toString()}`;
}
export const getSigningPassword = call<typeof calls.getSigningPassword>(P.getSigningPassword);
