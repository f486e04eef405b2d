import { expect, test } from '@playwright/test';
import {
  APP_ORIGIN,
  UNKNOWN_ORIGIN,
  ZHDB_ORIGIN,
  ZYPT_ORIGIN,
  openEsignInFrame,
  openPartnerPage,
  receivedBy,
  startPartnerServers,
} from './embedding-support.ts';
import { partnerToken } from './partner-support.ts';
import { type Locale, newPhone } from './support.ts';

// A partner platform frames the product (SPEC §1, §2). The server is configured with ZYPT's origin
// (ZYPT_ORIGIN) and ZHDB's (ZHDB_ORIGIN) in playwright.config.ts; the partner pages are served on those
// origins by small servers on those ports, cross-origin to the app (another port) but same-site, as a partner's sub-domain is.
const appUrl = (code: 'ZYPT' | 'ZHDB', phone: string) =>
  `${APP_ORIGIN}/#/manage/personalEsign?${new URLSearchParams({ fromPtCode: 'ZYPT', jsToken: partnerToken(code, phone) })}`;

// One worker runs this file in order: the partner servers hold their ports for it.
test.describe.configure({ mode: 'default' });
let stopPartners: () => Promise<void>;
test.beforeAll(async () => {
  stopPartners = await startPartnerServers([ZYPT_ORIGIN, ZHDB_ORIGIN, UNKNOWN_ORIGIN]);
});
test.afterAll(() => stopPartners());

for (const locale of ['en-US', 'zh-CN'] as Locale[]) {
  test.describe(`framed by a partner (${locale})`, () => {
    test.use({ locale });

    test('fromPtCode=ZYPT: no header, menu or footer; opening the account is reported to the partner only', async ({
      page,
    }) => {
      await openPartnerPage(page, ZYPT_ORIGIN, appUrl('ZYPT', newPhone()));
      const frame = page.frameLocator('#app');
      await expect(frame.getByRole('main').first()).toBeVisible();
      await expect(frame.getByRole('banner')).toHaveCount(0);
      await expect(frame.getByRole('navigation')).toHaveCount(0);
      await expect(frame.getByRole('contentinfo')).toHaveCount(0);
      expect(await receivedBy(page)).toEqual([]);

      await openEsignInFrame(frame, page, locale);
      await expect.poll(() => receivedBy(page)).toHaveLength(1);
      const [message] = await receivedBy(page);
      expect(message.origin).toBe(APP_ORIGIN);
      expect(message.data).toMatchObject({
        source: 'esign-platform',
        version: 1,
        event: 'accountOpened',
        payload: { userType: 0 },
        fromPtCode: 'ZYPT',
      });
    });
  });
}

test.describe("origins that are not the platform code's", () => {
  test.use({ locale: 'zh-CN' });

  test("ZHDB's page framing the app as ZYPT: allowed to frame, but hears nothing", async ({ page }) => {
    await openPartnerPage(page, ZHDB_ORIGIN, appUrl('ZYPT', newPhone()));
    const frame = page.frameLocator('#app');
    await openEsignInFrame(frame, page, 'zh-CN');
    // The same moment the ZYPT page above hears 'accountOpened': give the message time to arrive, then none.
    await page.waitForTimeout(1500);
    expect(await receivedBy(page)).toEqual([]);
  });

  test('an unknown origin cannot frame the app at all (frame-ancestors)', async ({ page, request }) => {
    const res = await request.get('/');
    const csp = res.headers()['content-security-policy'] ?? '';
    const ancestors = /frame-ancestors ([^;]+)/.exec(csp)?.[1].split(' ') ?? [];
    expect(ancestors).toEqual(expect.arrayContaining(["'self'", ZYPT_ORIGIN, ZHDB_ORIGIN]));
    expect(ancestors).not.toContain(UNKNOWN_ORIGIN);

    await openPartnerPage(page, UNKNOWN_ORIGIN, `${APP_ORIGIN}/#/pages/index?fromPtCode=ZYPT`);
    await page.waitForTimeout(1500);
    await expect(page.frameLocator('#app').getByRole('main')).toHaveCount(0);
    expect(await receivedBy(page)).toEqual([]);
    // Control: the same page on ZYPT's origin shows the app in the frame.
    await openPartnerPage(page, ZYPT_ORIGIN, `${APP_ORIGIN}/#/pages/index?fromPtCode=ZYPT`);
    await expect(page.frameLocator('#app').getByRole('main').first()).toBeVisible();
  });
});
