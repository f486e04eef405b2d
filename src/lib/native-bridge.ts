import { defineTexts, t, textOf } from '@/i18n/i18n-store.ts';
import { notify } from '@/lib/notify.ts';

/**
 * The bridge to a native mobile app that shows the product in a web view (SPEC §1, §4, §5, §8).
 *
 * Channels, detected in this order (the first present wins):
 *   window.EsignNative.postMessage(json)                 any app injecting an object (Android addJavascriptInterface)
 *   window.ReactNativeWebView.postMessage(json)          react-native-webview
 *   window.webkit.messageHandlers.esign.postMessage(obj) iOS WKWebView (handler name 'esign')
 * Web → native: { bridge: 'esign', version: 1, id, action, data } (a JSON string, an object for WKWebView)
 *   action 'hello'          data {}                                     first message; the app answers with its info
 *          'downloadImage'  data { url }                                absolute URL of the image to save
 *          'closeWebView'   data {}
 *          'signResult'     data { flowId, partyId, result: 'signed' | 'declined' }
 * Native → web: window.EsignBridge.receive(reply), reply = { id, ok, data?, error? } (object or JSON string),
 *   the id being the one of the message answered.
 * Initialisation (SPEC §4): the bridge is ready once the app answers 'hello', or at once when the app
 * injected default data before the page loaded (window.EsignNativeDefaults = { platform, appVersion, ... }).
 * Calls made before that wait for it; without a channel every call is refused with 'browser does not support
 * this function'.
 */

export const BRIDGE_NAME = 'esign';
export const BRIDGE_VERSION = 1;
/** How long a call waits for the app's answer (and the bridge for the answer to 'hello'). */
export const BRIDGE_TIMEOUT_MS = 10_000;

export const BridgeAction = {
  Hello: 'hello',
  DownloadImage: 'downloadImage',
  CloseWebView: 'closeWebView',
  SignResult: 'signResult',
} as const;
export type BridgeAction = (typeof BridgeAction)[keyof typeof BridgeAction];

export type BridgeRequest = {
  bridge: typeof BRIDGE_NAME;
  version: number;
  id: string;
  action: BridgeAction;
  data: object;
};
export type BridgeReply = { id: string; ok: boolean; data?: unknown; error?: string };
/** What the app tells about itself (its answer to 'hello', or the injected defaults). */
export type NativeInfo = { platform?: string; appVersion?: string } & Record<string, unknown>;

export const BridgeFailure = {
  Unsupported: 'unsupported',
  UrlEmpty: 'urlEmpty',
  Refused: 'refused',
  Timeout: 'timeout',
} as const;
export type BridgeFailure = (typeof BridgeFailure)[keyof typeof BridgeFailure];

export class BridgeError extends Error {
  readonly failure: BridgeFailure;
  constructor(failure: BridgeFailure, message: string) {
    super(message);
    this.failure = failure;
  }
}

const texts = defineTexts({
  'en-US': { refused: 'The app could not do this: {reason}', timeout: 'The app did not answer' },
  'zh-CN': { refused: '应用无法完成此操作：{reason}', timeout: '应用没有响应' },
});

type Sender = (request: BridgeRequest) => void;

type BridgeWindow = Window & {
  EsignNative?: { postMessage?: (json: string) => void };
  ReactNativeWebView?: { postMessage?: (json: string) => void };
  webkit?: { messageHandlers?: Record<string, { postMessage?: (message: unknown) => void } | undefined> };
  EsignNativeDefaults?: NativeInfo;
  EsignBridge?: { receive: (reply: BridgeReply | string) => void };
};

/** The native channel of this window, or null in a plain browser. */
export function detectChannel(win: Window = window): { name: string; send: Sender } | null {
  const w = win as BridgeWindow;
  if (typeof w.EsignNative?.postMessage === 'function') {
    const target = w.EsignNative;
    return { name: 'EsignNative', send: (r) => target.postMessage?.(JSON.stringify(r)) };
  }
  if (typeof w.ReactNativeWebView?.postMessage === 'function') {
    const target = w.ReactNativeWebView;
    return { name: 'ReactNativeWebView', send: (r) => target.postMessage?.(JSON.stringify(r)) };
  }
  const handler = w.webkit?.messageHandlers?.[BRIDGE_NAME];
  if (typeof handler?.postMessage === 'function') {
    return { name: 'webkit', send: (r) => handler.postMessage?.(r) };
  }
  return null;
}

export type BridgeState = 'idle' | 'waiting' | 'ready' | 'unsupported';

/** One bridge per window; `createNativeBridge` exists for tests with a fake window. */
export function createNativeBridge(win: Window = window, timeoutMs = BRIDGE_TIMEOUT_MS) {
  const w = win as BridgeWindow;
  let state: BridgeState = 'idle';
  let info: NativeInfo | null = null;
  let channel: ReturnType<typeof detectChannel> = null;
  let ready: Promise<NativeInfo | null> | null = null;
  let seq = 0;
  const pending = new Map<string, { resolve: (data: unknown) => void; reject: (e: BridgeError) => void }>();

  const receive = (raw: BridgeReply | string) => {
    let reply: BridgeReply;
    try {
      reply = typeof raw === 'string' ? (JSON.parse(raw) as BridgeReply) : raw;
    } catch {
      return;
    }
    const waiter = reply && pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (reply.ok) waiter.resolve(reply.data);
    else
      waiter.reject(
        new BridgeError(BridgeFailure.Refused, textOf(texts, 'refused', { reason: reply.error ?? '' })),
      );
  };

  const send = (action: BridgeAction, data: object): Promise<unknown> => {
    if (!channel) return Promise.reject(new BridgeError(BridgeFailure.Unsupported, t('bridge.unsupported')));
    seq += 1;
    const id = `${Date.now().toString(36)}-${seq}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new BridgeError(BridgeFailure.Timeout, textOf(texts, 'timeout')));
      }, timeoutMs);
      pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      try {
        channel!.send({ bridge: BRIDGE_NAME, version: BRIDGE_VERSION, id, action, data });
      } catch {
        pending.delete(id);
        clearTimeout(timer);
        reject(new BridgeError(BridgeFailure.Unsupported, t('bridge.unsupported')));
      }
    });
  };

  /** Detects the app and waits until it answered or gave default data (SPEC §4). Resolves null without an app. */
  const init = (): Promise<NativeInfo | null> => {
    if (ready) return ready;
    channel = detectChannel(win);
    w.EsignBridge = { receive };
    if (!channel) {
      state = 'unsupported';
      ready = Promise.resolve(null);
      return ready;
    }
    state = 'waiting';
    const defaults = w.EsignNativeDefaults;
    const hello = send(BridgeAction.Hello, {}).then((data) => {
      info = { ...(defaults ?? {}), ...((data as NativeInfo | undefined) ?? {}) };
      state = 'ready';
      return info;
    });
    if (defaults && typeof defaults === 'object') {
      // Default data counts as an answer: the app need not reply to 'hello' before the first call.
      info = { ...defaults };
      state = 'ready';
      hello.catch(() => {});
      ready = Promise.resolve(info);
    } else {
      ready = hello.catch((error: BridgeError) => {
        state = 'unsupported';
        channel = null;
        throw error;
      });
    }
    return ready;
  };

  const whenReady = async () => {
    try {
      await init();
    } catch {
      // no answer to 'hello': treated as no app below
    }
    if (state !== 'ready') throw new BridgeError(BridgeFailure.Unsupported, t('bridge.unsupported'));
  };

  return {
    init,
    receive,
    get state(): BridgeState {
      return state;
    },
    get info(): NativeInfo | null {
      return info;
    },
    /** True in the app's web view (a channel is there), before or after it answered. */
    hasNative: () => detectChannel(win) !== null,
    /** Save an image to the phone (SPEC §5: a url is required). Relative URLs are made absolute. */
    async downloadImage(url: string | null | undefined): Promise<void> {
      const trimmed = url?.trim();
      if (!trimmed) throw new BridgeError(BridgeFailure.UrlEmpty, t('bridge.urlEmpty'));
      await whenReady();
      await send(BridgeAction.DownloadImage, { url: new URL(trimmed, win.location.href).toString() });
    },
    async closeWebView(): Promise<void> {
      await whenReady();
      await send(BridgeAction.CloseWebView, {});
    },
    /** Hand the signing result to the app (it usually closes the view and refreshes its own list). */
    async sendSignResult(result: {
      flowId: string;
      partyId: string;
      result: 'signed' | 'declined';
    }): Promise<void> {
      await whenReady();
      await send(BridgeAction.SignResult, result);
    },
  };
}

export type NativeBridge = ReturnType<typeof createNativeBridge>;

let shared: NativeBridge | null = null;
/** The bridge of this page (created on first use). */
export function nativeBridge(): NativeBridge {
  if (!shared) shared = createNativeBridge();
  return shared;
}

/**
 * Run a bridge call from a screen: its refusal is shown as the catalogue's message (SPEC §8), 2 s. Resolves
 * true when the app did it.
 */
export async function runBridgeAction(action: (bridge: NativeBridge) => Promise<void>): Promise<boolean> {
  try {
    await action(nativeBridge());
    return true;
  } catch (error) {
    notify.error(error instanceof BridgeError ? error.message : t('bridge.unsupported'), 2000);
    return false;
  }
}
