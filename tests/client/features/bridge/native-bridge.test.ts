import { afterEach, describe, expect, it, vi } from 'vitest';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { setNotifier } from '@/lib/notify.ts';
import {
  type BridgeReply,
  type BridgeRequest,
  BridgeFailure,
  createNativeBridge,
  detectChannel,
} from '@/lib/native-bridge.ts';

type Win = Window & Record<string, unknown>;

/** A fake app: records what the page sends and answers like a native side would (or not at all). */
function fakeApp(
  kind: 'EsignNative' | 'ReactNativeWebView' | 'webkit',
  answer: (req: BridgeRequest) => BridgeReply | null = (req) => ({ id: req.id, ok: true, data: {} }),
) {
  const win = { location: { href: 'https://esign.example.com/#/h5/v1/signing_room' } } as unknown as Win;
  const received: BridgeRequest[] = [];
  const handle = (req: BridgeRequest) => {
    received.push(req);
    const reply = answer(req);
    // The app answers asynchronously, as a real web view does, through window.EsignBridge.receive.
    if (reply)
      setTimeout(() => (win.EsignBridge as { receive(r: string): void }).receive(JSON.stringify(reply)), 0);
  };
  if (kind === 'webkit') win.webkit = { messageHandlers: { esign: { postMessage: handle } } };
  else win[kind] = { postMessage: (json: string) => handle(JSON.parse(json) as BridgeRequest) };
  return { win, received };
}

afterEach(() => {
  useI18nStore.getState().setLocale('en-US');
  setNotifier(null);
});

describe('detecting the native side', () => {
  it('finds an injected EsignNative, react-native-webview and WKWebView, and nothing in a plain browser', () => {
    expect(detectChannel(fakeApp('EsignNative').win)?.name).toBe('EsignNative');
    expect(detectChannel(fakeApp('ReactNativeWebView').win)?.name).toBe('ReactNativeWebView');
    expect(detectChannel(fakeApp('webkit').win)?.name).toBe('webkit');
    expect(detectChannel({} as Window)).toBeNull();
  });
});

describe('initialisation (SPEC §4)', () => {
  it('is ready once the app answers hello, with what the app said', async () => {
    const app = fakeApp('ReactNativeWebView', (req) => ({
      id: req.id,
      ok: true,
      data: { platform: 'android' },
    }));
    const bridge = createNativeBridge(app.win);
    expect(bridge.state).toBe('idle');
    const info = await bridge.init();
    expect(info).toEqual({ platform: 'android' });
    expect(bridge.state).toBe('ready');
    expect(app.received[0]).toMatchObject({ bridge: 'esign', version: 1, action: 'hello' });
  });

  it('is ready at once with default data injected before load, even if hello is never answered', async () => {
    const app = fakeApp('EsignNative', () => null);
    app.win.EsignNativeDefaults = { platform: 'ios', appVersion: '3.2.0' };
    const bridge = createNativeBridge(app.win, 50);
    expect(await bridge.init()).toEqual({ platform: 'ios', appVersion: '3.2.0' });
    expect(bridge.state).toBe('ready');
  });

  it('an app that never answers and gave no defaults counts as no app', async () => {
    const app = fakeApp('EsignNative', () => null);
    const bridge = createNativeBridge(app.win, 30);
    await expect(bridge.closeWebView()).rejects.toMatchObject({ failure: BridgeFailure.Unsupported });
    expect(bridge.state).toBe('unsupported');
  });
});

describe('calls', () => {
  it('downloadImage sends the absolute url and resolves when the app saved it', async () => {
    const app = fakeApp('webkit');
    const bridge = createNativeBridge(app.win);
    await bridge.downloadImage('/v1/seal/abc.png');
    const download = app.received.find((r) => r.action === 'downloadImage');
    expect(download?.data).toEqual({ url: 'https://esign.example.com/v1/seal/abc.png' });
  });

  it("downloadImage without a url is refused with 'url cannot be empty' in both languages, nothing sent", async () => {
    const app = fakeApp('EsignNative');
    const bridge = createNativeBridge(app.win);
    await expect(bridge.downloadImage('')).rejects.toMatchObject({
      failure: BridgeFailure.UrlEmpty,
      message: 'The url cannot be empty',
    });
    useI18nStore.getState().setLocale('zh-CN');
    await expect(bridge.downloadImage('  ')).rejects.toMatchObject({ message: 'url不能为空' });
    expect(app.received).toEqual([]);
  });

  it("without an app every call says 'browser does not support this function'", async () => {
    const bridge = createNativeBridge({ location: { href: 'https://x/' } } as unknown as Window);
    await expect(bridge.downloadImage('https://x/a.png')).rejects.toMatchObject({
      failure: BridgeFailure.Unsupported,
      message: 'Browser does not support this function',
    });
    useI18nStore.getState().setLocale('zh-CN');
    await expect(bridge.closeWebView()).rejects.toMatchObject({ message: '浏览器不支持该功能' });
    expect(bridge.state).toBe('unsupported');
  });

  it('closeWebView and sendSignResult reach the app with their data', async () => {
    const app = fakeApp('ReactNativeWebView');
    const bridge = createNativeBridge(app.win);
    await bridge.sendSignResult({ flowId: 'f1', partyId: 'p1', result: 'signed' });
    await bridge.closeWebView();
    expect(app.received.map((r) => r.action)).toEqual(['hello', 'signResult', 'closeWebView']);
    expect(app.received[1].data).toEqual({ flowId: 'f1', partyId: 'p1', result: 'signed' });
    // Every message has its own id, and answers are matched by it.
    expect(new Set(app.received.map((r) => r.id)).size).toBe(3);
  });

  it("the app's refusal reaches the caller with its reason", async () => {
    const app = fakeApp('EsignNative', (req) =>
      req.action === 'downloadImage'
        ? { id: req.id, ok: false, error: 'no photo permission' }
        : { id: req.id, ok: true },
    );
    const bridge = createNativeBridge(app.win);
    await expect(bridge.downloadImage('https://x/a.png')).rejects.toMatchObject({
      failure: BridgeFailure.Refused,
      message: 'The app could not do this: no photo permission',
    });
  });

  it('runBridgeAction shows the refusal as a message for 2 s', async () => {
    const errors: [string, number][] = [];
    setNotifier({ error: (text, ms) => errors.push([text, ms]), success: () => {} });
    const { runBridgeAction } = await import('@/lib/native-bridge.ts');
    expect(await runBridgeAction((b) => b.downloadImage(''))).toBe(false);
    expect(errors).toEqual([['The url cannot be empty', 2000]]);
    vi.restoreAllMocks();
  });
});
