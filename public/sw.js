/* The offline worker (SPEC §1): a signer on a weak connection reopens the signing room from the cache.
 *
 * Registered by src/lib/offline-worker.ts in production builds only, as /sw.js?build=<id of the build>.
 *   /assets/*          cache-first: Vite names them by content hash, so a cached copy is never stale
 *   navigations, /, /index.html   network-first; the last good index.html is the offline shell
 *   /v1/* (the API)    never touched: no respondWith, so the browser goes to the network as without a worker
 *   other same-origin GETs (logo, favicon, the demo PDF)   network-first with the cache as fallback
 *   anything else (other origins, non-GET)                 not touched
 * Caches are named per build; a new build's worker waits until the page says SKIP_WAITING (the update
 * prompt), then deletes the caches of other builds.
 *
 * `routeFor` is a pure function of the request so tests can check every decision without a browser.
 */

const SHELL_URL = '/index.html';

/** What the worker does with a request: 'none' (not intercepted), 'cache-first' or 'network-first'. */
function routeFor(request, scopeOrigin) {
  if (request.method !== 'GET') return 'none';
  let url;
  try {
    url = new URL(request.url);
  } catch {
    return 'none';
  }
  if (url.origin !== scopeOrigin) return 'none';
  const path = url.pathname;
  // The API is never answered from a cache: balances, signing states and sessions must be live.
  if (path === '/v1' || path.startsWith('/v1/')) return 'none';
  // The worker's own script: the browser's update check must see the network copy.
  if (path === '/sw.js') return 'none';
  if (path.startsWith('/assets/')) return 'cache-first';
  if (request.mode === 'navigate' || path === '/' || path === SHELL_URL) return 'network-first-shell';
  return 'network-first';
}

/** Cache names of one build. */
function cacheNames(build) {
  return { shell: `esign-shell-${build}`, assets: `esign-assets-${build}` };
}

/** The /assets/ URLs an index.html refers to (scripts, style sheets, module preloads). */
function assetsOf(html) {
  const found = new Set();
  for (const match of html.matchAll(/(?:src|href)="(\/assets\/[^"?#]+)"/g)) found.add(match[1]);
  return [...found];
}

/** Only complete, same-origin, successful answers are kept. */
function isCacheable(response) {
  return Boolean(response) && response.ok && response.status === 200 && response.type === 'basic';
}

const api = { routeFor, cacheNames, assetsOf, isCacheable, SHELL_URL };

if (typeof ServiceWorkerGlobalScope !== 'undefined' && self instanceof ServiceWorkerGlobalScope) {
  const build = new URL(self.location.href).searchParams.get('build') || 'dev';
  const names = cacheNames(build);

  const put = async (cacheName, key, response) => {
    if (!isCacheable(response)) return;
    const cache = await caches.open(cacheName);
    await cache.put(key, response);
  };

  const cacheFirst = async (request) => {
    const cached = await caches.match(request, { cacheName: names.assets, ignoreSearch: true });
    if (cached) return cached;
    const response = await fetch(request);
    await put(names.assets, request, response.clone());
    return response;
  };

  const networkFirst = async (request, cacheName, key) => {
    try {
      const response = await fetch(request);
      await put(cacheName, key, response.clone());
      return response;
    } catch (error) {
      const cached = await caches.match(key, { cacheName });
      if (cached) return cached;
      throw error;
    }
  };

  self.addEventListener('install', (event) => {
    event.waitUntil(
      (async () => {
        const response = await fetch(SHELL_URL, { cache: 'no-store' });
        if (!isCacheable(response)) return;
        const html = await response.clone().text();
        await put(names.shell, SHELL_URL, response);
        const assets = await caches.open(names.assets);
        await assets.addAll(assetsOf(html));
      })(),
    );
  });

  self.addEventListener('activate', (event) => {
    event.waitUntil(
      (async () => {
        const keep = new Set([names.shell, names.assets]);
        for (const name of await caches.keys()) {
          if (name.startsWith('esign-') && !keep.has(name)) await caches.delete(name);
        }
        await self.clients.claim();
      })(),
    );
  });

  self.addEventListener('message', (event) => {
    const data = event.data || {};
    if (data.type === 'SKIP_WAITING') void self.skipWaiting();
    // The page lists the chunks it loaded before this worker controlled it (lazy screens included).
    if (data.type === 'CACHE_ASSETS' && Array.isArray(data.urls)) {
      const urls = data.urls.filter((u) => routeFor({ method: 'GET', url: u, mode: 'no-cors' }, self.location.origin) === 'cache-first');
      event.waitUntil(
        (async () => {
          const cache = await caches.open(names.assets);
          for (const u of urls) {
            if (await cache.match(u, { ignoreSearch: true })) continue;
            try {
              await put(names.assets, u, await fetch(u));
            } catch {
              // offline right now: the next load caches it
            }
          }
          event.ports[0]?.postMessage({ type: 'CACHED', count: urls.length });
        })(),
      );
    }
  });

  self.addEventListener('fetch', (event) => {
    const route = routeFor(event.request, self.location.origin);
    if (route === 'none') return;
    if (route === 'cache-first') event.respondWith(cacheFirst(event.request));
    else if (route === 'network-first-shell') event.respondWith(networkFirst(event.request, names.shell, SHELL_URL));
    else event.respondWith(networkFirst(event.request, names.shell, event.request.url));
  });
} else if (typeof module !== 'undefined') {
  module.exports = api;
}
