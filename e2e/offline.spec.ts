import { expect, type Page, test } from '@playwright/test';

// The offline worker (public/sw.js, registered by production builds): a signer on a weak connection reopens the
// signing room from the cache; the API is never answered from it.
const ROOM = '/#/h5/v1/signing_room';

/** Waits until the worker controls the page and holds every /assets/ file the page loaded. */
async function waitForOfflineReady(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          if (!navigator.serviceWorker.controller) return 'no worker yet';
          const urls = performance
            .getEntriesByType('resource')
            .map((e) => e.name)
            .filter((u) => new URL(u).pathname.startsWith('/assets/'));
          for (const u of urls) if (!(await caches.match(u))) return `not cached: ${u}`;
          return urls.length > 0 ? 'ready' : 'no assets';
        }),
      { timeout: 20_000 },
    )
    .toBe('ready');
}

test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, locale: 'zh-CN' });

test("after the first load the signing room reopens with the server's /assets blocked", async ({
  page,
  context,
}) => {
  await page.goto(ROOM);
  await expect(page.getByRole('main').first()).toBeVisible();
  await waitForOfflineReady(page);

  await context.route('**/assets/**', (route) => route.abort());
  await page.route('**/assets/**', (route) => route.abort());
  const assetAnswers: { url: string; fromWorker: boolean }[] = [];
  page.on('response', (r) => {
    if (new URL(r.url()).pathname.startsWith('/assets/'))
      assetAnswers.push({ url: r.url(), fromWorker: r.fromServiceWorker() });
  });
  await page.reload();
  await expect(page.getByRole('main').first()).toBeVisible();
  expect(assetAnswers.length).toBeGreaterThan(0);
  expect(assetAnswers.filter((a) => !a.fromWorker)).toEqual([]);
});

test('without the worker the same blocking leaves an empty page (the control)', async ({ browser }) => {
  const context = await browser.newContext({
    serviceWorkers: 'block',
    viewport: { width: 375, height: 812 },
  });
  const page = await context.newPage();
  await context.route('**/assets/**', (route) => route.abort());
  await page.goto(ROOM);
  await page.waitForTimeout(1500);
  await expect(page.getByRole('main')).toHaveCount(0);
  // Only index.html's own loading line: the app never started.
  await expect(page.locator('#root > :not(.boot-loading)')).toHaveCount(0);
  await context.close();
});

test('an API call is never answered from the cache', async ({ page, context }) => {
  await page.goto(ROOM);
  await waitForOfflineReady(page);
  // Live answer, not from the worker.
  const live = page.waitForResponse((r) => r.url().includes('/v1/health'));
  const status = await page.evaluate(async () => (await fetch('/v1/health')).status);
  expect(status).toBe(200);
  expect((await live).fromServiceWorker()).toBe(false);
  // With the network gone the call fails, although it was answered a moment ago.
  await context.route('**/v1/**', (route) => route.abort());
  await page.route('**/v1/**', (route) => route.abort());
  const offline = await page.evaluate(async () => {
    try {
      await fetch('/v1/health');
      return 'answered';
    } catch {
      return 'failed';
    }
  });
  expect(offline).toBe('failed');
});
