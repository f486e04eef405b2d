import { defineTexts, textOf } from '@/i18n/i18n-store.ts';

/**
 * Registers the offline worker (public/sw.js) in production builds and offers a reload when a new version
 * is deployed. The worker's URL carries the build id (the hash in the main script's file name), so a new
 * deploy is a new worker: it installs beside the running one and waits; the prompt asks the user, and only
 * then does it take over (SKIP_WAITING) and the page reloads — a signer is never reloaded mid-signature.
 * A page left open is told about a new deploy too: on becoming visible (at most every 10 minutes) it reads
 * index.html from the network and compares the main script it names with its own.
 */

const texts = defineTexts({
  'en-US': { title: 'A new version is available', text: 'Reload to use it.', reload: 'Reload' },
  'zh-CN': { title: '有新版本可用', text: '重新加载页面即可使用新版本。', reload: '重新加载' },
});

export const SW_URL = '/sw.js';
const VERSION_CHECK_INTERVAL_MS = 10 * 60_000;

/** The build id: the content hash Vite puts in the entry's file name (`/assets/index-<hash>.js`). */
export function buildIdOf(entryUrl: string): string {
  const name = new URL(entryUrl, 'http://x').pathname.split('/').pop() ?? '';
  const match = /-([A-Za-z0-9_-]{6,})\.js$/.exec(name);
  return match ? match[1] : 'dev';
}

/** The main script named by an index.html, or null. */
export function entryScriptOf(html: string): string | null {
  return /<script[^>]+type="module"[^>]+src="([^"]+)"/.exec(html)?.[1] ?? null;
}

/** The minimal surface of a ServiceWorkerRegistration the update logic needs (tests pass fakes). */
export type RegistrationLike = {
  waiting: { postMessage(message: unknown): void } | null;
  installing: { state: string; addEventListener(type: 'statechange', fn: () => void): void } | null;
  addEventListener(type: 'updatefound', fn: () => void): void;
};

/**
 * Calls `onUpdate` once when a new worker is waiting while an old one controls the page (a first install
 * is not an update). `hasController` is read at each moment: a first visit has none.
 */
export function watchForUpdate(
  registration: RegistrationLike,
  hasController: () => boolean,
  onUpdate: (waiting: { postMessage(message: unknown): void }) => void,
): void {
  let told = false;
  const tell = () => {
    if (told || !registration.waiting || !hasController()) return;
    told = true;
    onUpdate(registration.waiting);
  };
  tell();
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'installed') tell();
    });
  });
}

let isPromptShown = false;

/** The prompt: an antd notification with a Reload button (antd loads only when there is something to say). */
export async function showUpdatePrompt(onReload: () => void): Promise<void> {
  if (isPromptShown) return;
  isPromptShown = true;
  const [notification, { default: Button }, { createElement }] = await Promise.all([
    import('./antd-static.tsx').then((m) => m.loadNotification()),
    import('antd/es/button'),
    import('react'),
  ]);
  notification.info({
    key: 'esign-update',
    message: textOf(texts, 'title'),
    description: textOf(texts, 'text'),
    duration: 0,
    role: 'status',
    btn: createElement(
      Button,
      { type: 'primary', size: 'small', onClick: onReload },
      textOf(texts, 'reload'),
    ),
    onClose: () => {
      isPromptShown = false;
    },
  });
}

/** Same-origin /assets/ files this page loaded so far (lazy screens included), for the worker to keep. */
function loadedAssets(): string[] {
  return performance
    .getEntriesByType('resource')
    .map((e) => e.name)
    .filter((u) => u.startsWith(`${location.origin}/assets/`));
}

/** Register the worker; call once at start (main.tsx does, in production builds only). */
export async function registerOfflineWorker(entryUrl: string): Promise<void> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const container = navigator.serviceWorker;
  const currentEntry = new URL(entryUrl).pathname;
  let registration: ServiceWorkerRegistration;
  try {
    registration = await container.register(`${SW_URL}?build=${encodeURIComponent(buildIdOf(entryUrl))}`, {
      scope: '/',
    });
  } catch {
    return; // private mode or a blocked worker: the app works without it
  }

  const reloadInto = (waiting: { postMessage(message: unknown): void }) => {
    container.addEventListener('controllerchange', () => window.location.reload(), { once: true });
    waiting.postMessage({ type: 'SKIP_WAITING' });
  };
  watchForUpdate(
    registration,
    () => container.controller !== null,
    (waiting) => {
      void showUpdatePrompt(() => reloadInto(waiting));
    },
  );

  // The chunks of this first visit were fetched before the worker existed: hand it their list.
  const ready = await container.ready;
  ready.active?.postMessage({ type: 'CACHE_ASSETS', urls: loadedAssets() });
  container.addEventListener('controllerchange', () => {
    container.controller?.postMessage({ type: 'CACHE_ASSETS', urls: loadedAssets() });
  });

  let lastCheck = Date.now();
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible' || Date.now() - lastCheck < VERSION_CHECK_INTERVAL_MS) return;
    lastCheck = Date.now();
    void (async () => {
      try {
        const html = await (await fetch('/index.html', { cache: 'no-store' })).text();
        const entry = entryScriptOf(html);
        if (entry && new URL(entry, location.origin).pathname !== currentEntry) {
          // Registering the new URL installs the new build's worker; the prompt follows when it waits.
          await container.register(`${SW_URL}?build=${encodeURIComponent(buildIdOf(entry))}`, { scope: '/' });
        }
      } catch {
        // offline: check again next time
      }
    })();
  });
}
