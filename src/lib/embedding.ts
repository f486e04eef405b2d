import { browser } from '@/lib/browser.ts';
import { storedPlatformCode } from '@/platform/platform-store.ts';
import { useSessionStore } from '@/session/session-store.ts';

/**
 * Framed embedding (SPEC §1, §2): a partner platform shows the product in an iframe and wants to know when
 * something that matters happened. The framed app posts one message per event to the parent window:
 *
 *   { source: 'esign-platform', version: 1, event, payload, fromPtCode, at }
 *
 *   event 'signingFinished'  payload { flowId, partyId }       a party signed in the signing room
 *         'signingDeclined'  payload { flowId, partyId }       a party declined
 *         'accountOpened'    payload { userType }             the account got its certificate (e-signature open)
 *         'signingRoomLost'  payload { flowId, partyId }       the framed room cannot go on: its one-time URL was
 *                            (ids null when unknown)           already used or has expired, or a reload lost it
 *                                                              where the browser keeps nothing; the partner asks
 *                                                              for a new signing URL and loads it in the frame
 *
 * Messages go ONLY to the origins configured for the platform code in force (PARTNER_<CODE>_ORIGINS; for the
 * default platform the exact origins of FRAME_ANCESTORS, the integrators that embed signing; read with
 * getPlatformConfig), each posted with that exact targetOrigin — never '*': a page of another origin
 * that frames the app (or navigated the parent away) receives nothing. Payloads carry ids, never tokens
 * or personal data. Outside a frame, or for a code without origins, nothing is sent.
 */

export const EMBED_MESSAGE_SOURCE = 'esign-platform';
const EMBED_MESSAGE_VERSION = 1;

export const EmbedEvent = {
  SigningFinished: 'signingFinished',
  SigningDeclined: 'signingDeclined',
  AccountOpened: 'accountOpened',
  SigningRoomLost: 'signingRoomLost',
} as const;
export type EmbedEvent = (typeof EmbedEvent)[keyof typeof EmbedEvent];

type EmbedPayloads = {
  signingFinished: { flowId: string; partyId: string };
  signingDeclined: { flowId: string; partyId: string };
  accountOpened: { userType: number };
  signingRoomLost: { flowId: string | null; partyId: string | null };
};

type EmbedMessage<E extends EmbedEvent = EmbedEvent> = {
  source: typeof EMBED_MESSAGE_SOURCE;
  version: typeof EMBED_MESSAGE_VERSION;
  event: E;
  payload: EmbedPayloads[E];
  fromPtCode: string;
  /** ISO time the event happened in the app. */
  at: string;
};

/** Where the origins of a platform code come from (the server; tests pass their own). */
type OriginsLoader = (fromPtCode: string) => Promise<string[]>;

const loadOriginsFromServer: OriginsLoader = async (fromPtCode) => {
  const { getPlatformConfig } = await import('@/api/platform.ts');
  return (await getPlatformConfig({ fromPtCode })).origins;
};

let originsLoader: OriginsLoader = loadOriginsFromServer;
const originsCache = new Map<string, Promise<string[]>>();

/** Replace how origins are loaded (tests); null restores the server call. Clears the cache. */
export function setOriginsLoader(loader: OriginsLoader | null): void {
  originsLoader = loader ?? loadOriginsFromServer;
  originsCache.clear();
}

/** The partner origins of a code, asked once per page; a failed answer is not cached (asked again next time). */
function partnerOrigins(fromPtCode: string): Promise<string[]> {
  let origins = originsCache.get(fromPtCode);
  if (!origins) {
    origins = originsLoader(fromPtCode).then((list) => list.filter(isOrigin));
    originsCache.set(fromPtCode, origins);
    origins.catch(() => originsCache.delete(fromPtCode));
  }
  return origins;
}

// Only exact http(s) origins; '*' or a path would widen who receives the message.
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

/**
 * Tell the partner page that frames the app about an event. Resolves to the number of origins the message
 * was posted to (0 when not framed or when the code has no origins). Never
 * throws: an event the parent cannot hear must not break the screen that reports it.
 */
export async function notifyParent<E extends EmbedEvent>(
  event: E,
  payload: EmbedPayloads[E],
): Promise<number> {
  if (!browser.isFramed()) return 0;
  const fromPtCode = storedPlatformCode();
  let origins: string[];
  try {
    origins = await partnerOrigins(fromPtCode);
  } catch {
    return 0;
  }
  const message: EmbedMessage<E> = {
    source: EMBED_MESSAGE_SOURCE,
    version: EMBED_MESSAGE_VERSION,
    event,
    payload,
    fromPtCode,
    at: new Date().toISOString(),
  };
  let posted = 0;
  for (const origin of origins) {
    try {
      // The browser delivers this only if the parent's origin is exactly `origin`.
      window.parent.postMessage(message, origin);
      posted += 1;
    } catch {
      // a detached parent: nothing to tell
    }
  }
  return posted;
}

/**
 * 'accountOpened' from one place: the cached login info is refreshed (updateLoginUserInfoCache) after every
 * account-opening path — person on PC or phone, company — so the moment `hasCaCert` turns true for the same
 * account is the moment e-signature opened. Returns the unsubscribe function.
 */
export function watchAccountOpened(): () => void {
  return useSessionStore.subscribe((next, previous) => {
    const before = previous.userInfo;
    const after = next.userInfo;
    if (before && after && before.userId === after.userId && before.userType === after.userType) {
      if (!before.hasCaCert && after.hasCaCert)
        void notifyParent(EmbedEvent.AccountOpened, { userType: after.userType });
    }
  });
}
