import { expect, type Page, test } from '@playwright/test';
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
import { uploadPdf } from './package-support.ts';
import { partnerToken } from './partner-support.ts';
import { registerViaApi } from './person-support.ts';
import {
  personWithSeal,
  call,
  contractPdf,
  latestSigningLink,
  nextSmsCode,
  openPersonESign,
  signingTexts,
  smsCount,
} from './signing-support.ts';
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

// The signing room in a partner's frame (SPEC §1, §2): the signer logs in by link SMS code and signs; the
// partner hears 'signingFinished' once, from the app's origin. The flow is launched through the API.
test.describe('signing inside a partner frame', () => {
  test.use({ locale: 'en-US' });
  const t = signingTexts['en-US'];

  /** A person flow with one person party (e-signature opened, a name seal); the signer's link and ids. */
  async function launchForSigner(page: Page) {
    const signerPhone = await personWithSeal(page, t.personB);
    await page.context().clearCookies();

    const initiatorPhone = await registerViaApi(page);
    await openPersonESign(page.request, initiatorPhone, t.personA);
    const documentId = await uploadPdf(page.request, await contractPdf(), 0);
    const { flowId } = await call<{ flowId: string }>(page.request, 'launchFlow', {
      title: 'Framed signing',
      documentIds: [documentId],
      steps: [
        {
          parties: [
            {
              kind: 'person',
              name: t.personB,
              phone: signerPhone,
              positions: [{ documentId, page: 2, rect: [340, 200, 440, 250] }],
            },
          ],
        },
      ],
    });
    const detail = await call<{ steps: { parties: { partyId: string }[] }[] }>(
      page.request,
      'getFlowDetail',
      {
        flowId,
      },
    );
    const partyId = detail.steps[0].parties[0].partyId;
    const link = await latestSigningLink(page.request, signerPhone);
    await page.context().clearCookies();
    return { flowId, partyId, signerPhone, link };
  }

  test('fromPtCode=ZYPT: the partner hears one signingFinished from the app origin', async ({ page }) => {
    test.setTimeout(120_000);
    const { flowId, partyId, signerPhone, link } = await launchForSigner(page);
    await openPartnerPage(page, ZYPT_ORIGIN, `${APP_ORIGIN}/#${link}?fromPtCode=ZYPT`);
    const frame = page.frameLocator('#app');
    await expect(frame.getByRole('main').first()).toBeVisible();
    await expect(frame.getByRole('banner')).toHaveCount(0);
    await expect(frame.getByRole('navigation')).toHaveCount(0);
    await expect(frame.getByRole('contentinfo')).toHaveCount(0);

    // Link login by SMS code, inside the frame.
    await frame.getByLabel(t.phone).fill(signerPhone);
    let before = await smsCount(page.request, signerPhone);
    await frame.getByRole('button', { name: t.getCode }).click();
    await frame.getByLabel(t.smsCode).fill(await nextSmsCode(page.request, signerPhone, before));
    await frame.getByRole('button', { name: t.enter }).click();
    await expect(frame.getByTestId('sign-position')).toBeVisible({ timeout: 20_000 });
    expect(await receivedBy(page)).toEqual([]);

    // The saved name seal is preselected; sign and confirm by SMS code.
    await frame.getByRole('button', { name: t.sign, exact: true }).click();
    const dialog = frame.getByRole('dialog');
    await expect(dialog).toBeVisible();
    before = await smsCount(page.request, signerPhone);
    await dialog.getByRole('button', { name: t.getCode }).click();
    await dialog.getByLabel(t.smsCode).fill(await nextSmsCode(page.request, signerPhone, before));
    await dialog.getByRole('button', { name: t.confirmSign }).click();
    await expect(frame.getByText(t.resultSigned)).toBeVisible({ timeout: 60_000 });
    await expect(frame.getByTestId('flow-state')).toHaveText(t.completed, { timeout: 30_000 });

    await expect.poll(() => receivedBy(page)).toHaveLength(1);
    const [message] = await receivedBy(page);
    expect(message.origin).toBe(APP_ORIGIN);
    expect(message.data).toMatchObject({
      source: 'esign-platform',
      version: 1,
      event: 'signingFinished',
      payload: { flowId, partyId },
      fromPtCode: 'ZYPT',
    });
  });

  test('an unknown origin cannot frame the signing room, so it hears nothing', async ({ page }) => {
    const { link } = await launchForSigner(page);
    await openPartnerPage(page, UNKNOWN_ORIGIN, `${APP_ORIGIN}/#${link}?fromPtCode=ZYPT`);
    // Chromium replaces a frame refused by frame-ancestors with its error page.
    const child = () => page.frames().find((f) => f !== page.mainFrame());
    await expect.poll(() => child()?.url() ?? '').toMatch(/^chrome-error:/);
    await expect(page.frameLocator('#app').getByRole('main')).toHaveCount(0);
    expect(await receivedBy(page)).toEqual([]);
  });
});
