import { gzipSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import { registerViaApi } from './person-support.ts';
import { fingerStroke } from './seal-support.ts';
import {
  call,
  contractPdf,
  fetchPdf,
  latestSigningLink,
  nextSmsCode,
  openPersonESign,
  signingTexts,
  smsCount,
  verifyWithCli,
} from './signing-support.ts';
import type { Locale } from './support.ts';

/** Gzipped bytes of every script a page fetched, the pdf.js worker left out (the budget excludes it). */
function scriptMeter(page: Page) {
  const bodies = new Map<string, Promise<Buffer>>();
  page.on('response', (res) => {
    const url = res.url();
    if (/\.(m?js)(\?|$)/.test(url) && !url.includes('pdf.worker')) bodies.set(url, res.body());
  });
  return async () => {
    let total = 0;
    const sizes: [string, number][] = [];
    for (const [url, b] of bodies) {
      const size = gzipSync(await b, { level: 9 }).length;
      sizes.push([url.replace(/^.*\//, ''), size]);
      total += size;
    }
    if (process.env.SIGNING_JS_DETAIL) {
      for (const [name, size] of sizes.sort((a, b) => b[1] - a[1]))
        console.log(`${(size / 1024).toFixed(1)} kB ${name}`);
    }
    return total;
  };
}

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  const t = signingTexts[locale];

  test.describe(`signing (${locale})`, () => {
    test.use({ locale, viewport: { width: 1280, height: 900 } });

    test('a person launches a contract for another person; the other signs on a phone, the first on PC; both download it', async ({
      browser,
      page,
    }) => {
      test.setTimeout(240_000);
      const baseURL = test.info().project.use.baseURL;

      // The second person: registered, e-signature opened, then logged out — the link is all they use.
      const phoneContext = await browser.newContext({
        locale,
        baseURL,
        viewport: { width: 375, height: 812 },
        isMobile: true,
        hasTouch: true,
      });
      const phonePage = await phoneContext.newPage();
      const phoneB = await registerViaApi(phonePage);
      await openPersonESign(phonePage.request, phoneB, t.personB);
      await phoneContext.clearCookies();

      // The first person: e-signature opened and a name seal, logged in on this PC page.
      const phoneA = await registerViaApi(page);
      await openPersonESign(page.request, phoneA, t.personA);
      await call(page.request, 'savePersonSeal', { sealDTO: { userType: 0 } });

      // Quick launch: upload, two signers in parallel, one placed by dragging, one by keyword, send.
      await page.goto('/#/manage/home/quicklyFileUpload');
      await expect(page.getByText(t.quota)).toBeVisible();
      await page.getByLabel(t.chooseFile).setInputFiles(await contractPdf());
      await expect(page.getByRole('listitem').filter({ hasText: 'contract.pdf' })).toBeVisible({
        timeout: 20_000,
      });
      await page.getByRole('button', { name: t.next }).click();
      await page.getByLabel(t.signerPhone).fill(phoneB);
      await page.getByLabel(t.signerName).fill(t.personB);
      await page.getByRole('button', { name: t.addParty }).click();
      await page.getByLabel(t.signerPhone).nth(1).fill(phoneA);
      await page.getByLabel(t.signerName).nth(1).fill(t.personA);
      await page.getByRole('button', { name: t.next }).click();

      const chipB = page.getByRole('button', { name: new RegExp(t.personB) });
      const chipA = page.getByRole('button', { name: new RegExp(t.personA) });
      await expect(page.locator('.pdf-page[data-page="1"][data-drawn="true"]')).toBeVisible({
        timeout: 20_000,
      });
      // Drag the second person's chip onto page 1.
      await chipB.dragTo(page.getByTestId('drop-page-1'), { targetPosition: { x: 320, y: 420 } });
      await expect(page.getByTestId('placed-box')).toHaveCount(1);
      // The first person by the keyword "Party A" (page 2).
      await chipA.click();
      await page.getByLabel(t.keyword).fill('Party A');
      await page.getByRole('button', { name: t.placeByKeyword }).click();
      await expect(page.getByTestId('placed-box')).toHaveCount(2);
      await page.getByRole('button', { name: t.next }).click();
      await page.getByRole('button', { name: t.send }).click();
      await expect(page.getByText(t.sent)).toBeVisible({ timeout: 30_000 });

      // The second person opens the link on a 375 px phone, logs in by SMS code and lands in the h5 room.
      const roomJs = scriptMeter(phonePage);
      const link = await latestSigningLink(phonePage.request, phoneB);
      await phonePage.goto(`/#${link}`);
      await phonePage.getByLabel(t.phone).fill(phoneB);
      let before = await smsCount(phonePage.request, phoneB);
      await phonePage.getByRole('button', { name: t.getCode }).click();
      await phonePage.getByLabel(t.smsCode).fill(await nextSmsCode(phonePage.request, phoneB, before));
      await phonePage.getByRole('button', { name: t.enter }).click();
      await expect(phonePage).toHaveURL(/#\/h5\/v1\/signing_room\?/);
      await expect(phonePage.getByTestId('sign-position')).toBeVisible({ timeout: 20_000 });
      await expect(phonePage.locator('.pdf-page[data-drawn="true"]').first()).toBeVisible({
        timeout: 20_000,
      });
      const roomBytes = await roomJs();
      test.info().annotations.push({
        type: 'signing room JS (gzip, no worker)',
        description: `${(roomBytes / 1024).toFixed(1)} kB`,
      });
      console.log(
        `[signing room] ${locale}: ${(roomBytes / 1024).toFixed(1)} kB of gzipped JS without the pdf.js worker`,
      );
      // Nothing is wider than the phone.
      expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

      await expect(phonePage.getByRole('radio', { name: t.drawSignature })).toBeChecked();
      const pad = `canvas[aria-label="${t.pad}"]`;
      await phonePage.locator(pad).scrollIntoViewIfNeeded();
      await fingerStroke(phonePage, pad, [
        [0.1, 0.6],
        [0.3, 0.3],
        [0.5, 0.7],
        [0.7, 0.3],
        [0.9, 0.6],
      ]);
      await phonePage.getByRole('button', { name: t.sign, exact: true }).click();
      const dialog = phonePage.getByRole('dialog');
      await expect(dialog).toBeVisible();
      before = await smsCount(phonePage.request, phoneB);
      await dialog.getByRole('button', { name: t.getCode }).click();
      await dialog.getByLabel(t.smsCode).fill(await nextSmsCode(phonePage.request, phoneB, before));
      await dialog.getByRole('button', { name: t.confirmSign }).click();
      await expect(phonePage).toHaveURL(/#\/sign_confirm\?/, { timeout: 60_000 });
      await expect(phonePage.getByText(t.resultSigned)).toBeVisible();
      await expect(phonePage.getByTestId('flow-state')).toHaveText(t.waiting);

      // The first person finds it in the list and signs on PC with the name seal.
      await page.goto('/#/signList');
      await page.getByRole('tab', { name: t.tabPending }).click();
      await page
        .getByRole('article', { name: 'contract' })
        .getByRole('button', { name: t.sign, exact: true })
        .click();
      await expect(page).toHaveURL(/#\/pc\/v1\/signing_room\?/);
      await expect(page.getByTestId('sign-position')).toBeVisible({ timeout: 20_000 });
      await page.getByRole('button', { name: t.sign, exact: true }).click();
      const pcDialog = page.getByRole('dialog');
      before = await smsCount(page.request, phoneA);
      await pcDialog.getByRole('button', { name: t.getCode }).click();
      await pcDialog.getByLabel(t.smsCode).fill(await nextSmsCode(page.request, phoneA, before));
      await pcDialog.getByRole('button', { name: t.confirmSign }).click();
      await expect(page).toHaveURL(/#\/sign_confirm\?/, { timeout: 60_000 });
      await expect(page.getByTestId('flow-state')).toHaveText(t.completed, { timeout: 30_000 });

      // Both download the signed PDF: two signatures, each verified by the repository's verifier.
      const signedHref = await page.getByRole('link', { name: t.downloadSigned }).getAttribute('href');
      const signed = await fetchPdf(page.request, signedHref ?? '');
      expect(signed.startsWithPdf).toBe(true);
      expect(signed.byteRanges).toBeGreaterThanOrEqual(2);
      const report = verifyWithCli(signed.bytes);
      expect(report).not.toBeNull();
      const approvals = report?.signatures.filter((s) => s.kind === 'approval') ?? [];
      expect(approvals).toHaveLength(2);
      for (const s of approvals) expect(s.trustAside.indication).toBe('TOTAL_PASSED');
      const reportHref = await page.getByRole('link', { name: t.downloadReport }).getAttribute('href');
      expect((await fetchPdf(page.request, reportHref ?? '')).startsWithPdf).toBe(true);

      await phonePage.reload();
      await expect(phonePage.getByTestId('flow-state')).toHaveText(t.completed);
      const phoneHref = await phonePage.getByRole('link', { name: t.downloadSigned }).getAttribute('href');
      const phoneCopy = await fetchPdf(phonePage.request, phoneHref ?? '');
      expect(phoneCopy.startsWithPdf).toBe(true);
      expect(phoneCopy.bytes.equals(signed.bytes)).toBe(true);
      await phoneContext.close();
    });
  });
}
