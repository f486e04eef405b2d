import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, expect, type Page, test } from '@playwright/test';
import {
  APP_ORIGIN,
  CROSS_SITE_INTEGRATOR_ORIGIN,
  CROSS_SITE_ZYPT_ORIGIN,
  openEsignInFrame,
  openPartnerPage,
  receivedBy,
  startPartnerServers,
} from './embedding-support.ts';
import { integratorApi, launchEmbedded } from './integrator-support.ts';
import { partnerToken } from './partner-support.ts';
import { personTexts, registerViaApi } from './person-support.ts';
import {
  call,
  nextSmsCode,
  openPersonESign,
  personWithSeal,
  signingTexts,
  smsCount,
} from './signing-support.ts';
import { newPhone, pdfsigValidity } from './support.ts';

// Partners live on their own sites (issue 25): the partner's page is on `localhost`, the app on `127.0.0.1`,
// two SITES, so the app runs in a cross-site iframe. There a browser treats the app's cookies and storage as
// third-party: SameSite=Lax cookies are never sent, and with third-party cookies blocked (Safari always,
// Chromium by setting and in incognito) storage is refused and only partitioned cookies are kept. Each journey
// runs in a Chromium profile with third-party cookies allowed and in one with them blocked, and first proves
// the profile does what it says (storage in the frame answers, or is refused).

type CookiePolicy = 'allowed' | 'blocked';
const t = signingTexts['en-US'];

// One worker runs this file in order: the partner servers hold their ports for it.
test.describe.configure({ mode: 'default' });
let stopPartners: () => Promise<void>;
test.beforeAll(async () => {
  stopPartners = await startPartnerServers([CROSS_SITE_ZYPT_ORIGIN, CROSS_SITE_INTEGRATOR_ORIGIN]);
});
test.afterAll(() => stopPartners());

/** A Chromium of its own with a profile whose third-party-cookie setting is `policy` (chrome://settings/cookies). */
async function browserWith(policy: CookiePolicy): Promise<BrowserContext> {
  const profile = mkdtempSync(join(tmpdir(), 'esign-3pc-'));
  mkdirSync(join(profile, 'Default'));
  const isBlocked = policy === 'blocked';
  writeFileSync(
    join(profile, 'Default', 'Preferences'),
    JSON.stringify({
      profile: { cookie_controls_mode: isBlocked ? 1 : 0, block_third_party_cookies: isBlocked },
    }),
  );
  const { launchOptions } = test.info().project.use;
  return chromium.launchPersistentContext(profile, {
    ...launchOptions,
    baseURL: APP_ORIGIN,
    locale: 'en-US',
    viewport: { width: 1280, height: 1000 },
  });
}

/** The app's frame in the partner's page. */
const appFrame = (page: Page) => {
  const frame = page.frames().find((f) => f.url().startsWith(APP_ORIGIN));
  if (!frame) throw new Error('the app is not framed in this page');
  return frame;
};

/** Whether the framed app may use session storage: the profile's policy, seen from inside the frame. */
const frameHasStorage = (page: Page) =>
  appFrame(page).evaluate(() => {
    try {
      window.sessionStorage.getItem('probe');
      return true;
    } catch {
      return false;
    }
  });

for (const policy of ['allowed', 'blocked'] as CookiePolicy[]) {
  test.describe(`third-party cookies ${policy}`, () => {
    test(`an integrator's page on another site: the embedded room survives a reload, a spent URL says what to do, the signer signs to the end`, async ({
      page,
    }) => {
      test.setTimeout(240_000);
      // The integrator: an account with an API key; the signer: an account with a seal.
      const signerPhone = await personWithSeal(page, t.personB);
      await page.context().clearCookies();
      const phone = await registerViaApi(page);
      await openPersonESign(page.request, phone, t.personA);
      const { secret } = await call<{ secret: string }>(page.request, 'createApiKey', {
        name: 'portal',
        scopes: ['flows:read', 'flows:write', 'documents:read'],
      });
      const api = integratorApi(page, secret);
      const { flowId, partyId, documentId, url } = await launchEmbedded(api, `Cross-site ${policy}`, {
        name: t.personB,
        phone: signerPhone,
      });

      const browser = await browserWith(policy);
      try {
        const first = await browser.newPage();
        await openPartnerPage(first, CROSS_SITE_INTEGRATOR_ORIGIN, url);
        const frame = first.frameLocator('#app');
        await expect(frame.getByTestId('sign-position')).toBeVisible({ timeout: 30_000 });
        expect(await frameHasStorage(first)).toBe(policy === 'allowed');

        // A reload inside the frame keeps the room (this tab's storage, or a partitioned cookie where the
        // browser refuses storage).
        await appFrame(first).evaluate(() => window.location.reload());
        await expect(frame.getByTestId('sign-position')).toBeVisible({ timeout: 30_000 });

        // The same one-time URL loaded again: the room says plainly what to do, and tells the integrator's page.
        const second = await browser.newPage();
        await openPartnerPage(second, CROSS_SITE_INTEGRATOR_ORIGIN, url);
        const secondFrame = second.frameLocator('#app');
        await expect(secondFrame.getByText(/one-time link has been used/)).toBeVisible({ timeout: 30_000 });
        await expect
          .poll(() => receivedBy(second))
          .toEqual([
            expect.objectContaining({
              origin: APP_ORIGIN,
              data: expect.objectContaining({ event: 'signingRoomLost', source: 'esign-platform' }),
            }),
          ]);

        // The integrator asks for a new URL and loads it in the frame: the signer signs.
        const fresh = await api<{ url: string }>(
          'POST',
          `/flows/${flowId}/parties/${partyId}/signing-url`,
          {},
        );
        await second.evaluate((next) => {
          (document.getElementById('app') as HTMLIFrameElement).src = next;
        }, fresh.url);
        await expect(secondFrame.getByTestId('sign-position')).toBeVisible({ timeout: 30_000 });
        await secondFrame.getByRole('button', { name: t.sign, exact: true }).click();
        const dialog = secondFrame.getByRole('dialog');
        const before = await smsCount(page.request, signerPhone);
        await dialog.getByRole('button', { name: t.getCode }).click();
        await dialog.getByLabel(t.smsCode).fill(await nextSmsCode(page.request, signerPhone, before));
        await dialog.getByRole('button', { name: t.confirmSign }).click();
        await expect(secondFrame.getByText(t.resultSigned)).toBeVisible({ timeout: 60_000 });
        await expect
          .poll(async () => (await receivedBy(second)).map((m) => (m.data as { event: string }).event))
          .toEqual(['signingRoomLost', 'signingFinished']);
        const finished = (await receivedBy(second))[1];
        expect(finished.origin).toBe(APP_ORIGIN);
        expect(finished.data).toMatchObject({ payload: { flowId, partyId } });
        // The embedded room logged no browser in.
        expect((await browser.cookies(APP_ORIGIN)).map((c) => c.name)).not.toContain('sid');
      } finally {
        await browser.close();
      }

      // The signed PDF, as the integrator downloads it: the party's signature is valid for poppler's pdfsig (the
      // document time-stamp after it is one pdfsig lists without verifying).
      let signed: Buffer | null = null;
      await expect
        .poll(
          async () => {
            const res = await page.request.get(
              `${APP_ORIGIN}/open/v1/flows/${flowId}/documents/${documentId}/signed-pdf`,
              { headers: { authorization: `Bearer ${secret}` } },
            );
            signed = res.ok() ? await res.body() : null;
            return res.status();
          },
          { timeout: 60_000 },
        )
        .toBe(200);
      const verdicts = pdfsigValidity(signed!);
      expect(verdicts[0]).toBe('Signature is Valid.');
      expect(verdicts.join(' ')).not.toMatch(/invalid|mismatch|failed/i);
    });

    test(`a partner's page on another site logs its user in by jsToken; the account opens in the frame and a reload keeps the session`, async () => {
      test.setTimeout(180_000);
      const p = personTexts['en-US'];
      const browser = await browserWith(policy);
      try {
        const partner = await browser.newPage();
        const appUrl = `${APP_ORIGIN}/#/manage/personalEsign?${new URLSearchParams({
          fromPtCode: 'ZYPT',
          jsToken: partnerToken('ZYPT', newPhone()),
        })}`;
        await openPartnerPage(partner, CROSS_SITE_ZYPT_ORIGIN, appUrl);
        const frame = partner.frameLocator('#app');
        await expect(frame.getByLabel(p.name, { exact: true })).toBeVisible({ timeout: 30_000 });
        expect(await frameHasStorage(partner)).toBe(policy === 'allowed');
        // ZYPT's layout: no header, menu or footer.
        await expect(frame.getByRole('banner')).toHaveCount(0);

        // Real name by SMS, agreement, certificate: every call made with the session the frame holds.
        await openEsignInFrame(frame, partner, 'en-US');
        await expect
          .poll(() => receivedBy(partner))
          .toEqual([
            expect.objectContaining({
              origin: APP_ORIGIN,
              data: expect.objectContaining({ event: 'accountOpened', fromPtCode: 'ZYPT' }),
            }),
          ]);

        // A reload inside the frame: still logged in, the account still open.
        await appFrame(partner).evaluate(() => window.location.reload());
        await expect(frame.getByText(p.done)).toBeVisible({ timeout: 30_000 });
        await expect(frame.getByLabel(p.name, { exact: true })).toHaveCount(0);
      } finally {
        await browser.close();
      }
    });
  });
}
