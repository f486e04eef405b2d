import { expect, type Page, test } from '@playwright/test';
import type { Locale } from './support.ts';
import { corpusBytes, verifyTexts } from './verify-support.ts';

const ATTACKED = 'dss/pdf-signed-added-page.pdf';
const VALID = 'node-signpdf/signed-once.pdf';

async function upload(page: Page, label: string, name: string, buffer: Buffer) {
  await page.getByLabel(label, { exact: true }).setInputFiles({ name, mimeType: 'application/pdf', buffer });
}

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  const t = verifyTexts[locale];

  test.describe(`verification pages (${locale})`, () => {
    test.use({ locale });

    test('an attacked file: invalid, modified after signing, with the reason; its seal outlined in the document', async ({
      page,
    }) => {
      await page.goto('/#/check');
      await upload(page, t.drop, 'attacked.pdf', corpusBytes(ATTACKED));
      const result = page.getByRole('status', { name: t.result });
      await expect(result).toContainText(t.modified);
      // The report is kept: the route names it, so a reload shows it again.
      await expect(page).toHaveURL(/#\/check\/[0-9a-f-]{36}$/);
      const card = page.getByRole('article', { name: t.signature1 });
      await expect(card).toContainText(t.sigModified);
      await expect(card).toContainText(t.reasonModified);
      await expect(card).toContainText('good-user');
      await expect(page.getByRole('link', { name: t.downloadPdf })).toHaveAttribute(
        'href',
        /downloadVerifyReport\/.+\.pdf/,
      );
      await page.reload();
      await expect(page.getByRole('status', { name: t.result })).toContainText(t.modified);
      // The document view outlines the signature's widget, linked to its card.
      await page.getByRole('tab', { name: t.document }).click();
      await expect(page).toHaveURL(/#\/check\/checkPdf\?report=/);
      // After the reload the browser no longer has the file (the server never keeps it): choose it again.
      await upload(page, t.chooseAgain, 'attacked.pdf', corpusBytes(ATTACKED));
      const outline = page.getByRole('button', { name: t.signature1 });
      await expect(outline).toBeVisible();
      await expect(page.locator('.pdf-page[data-page="1"]')).toHaveAttribute('data-drawn', 'true', {
        timeout: 30_000,
      });
      await outline.click();
      await expect(page.getByRole('article', { name: t.signature1 })).toHaveClass(/is-selected/);
      if (process.env.VERIFY_SCREENSHOTS) await page.screenshot({ path: `/tmp/verify-pdf-${locale}.png` });
    });

    test('a valid file: a signature card with the signer and the certificate chain', async ({ page }) => {
      await page.goto('/#/fileVerification');
      await upload(page, t.drop, 'signed-once.pdf', corpusBytes(VALID));
      await expect(page.getByRole('status', { name: t.result })).toContainText(t.unknownIdentity);
      const card = page.getByRole('article', { name: t.signature1 });
      await expect(card).toContainText(t.sigUnknownIdentity);
      await expect(card).toContainText('signpdf');
      await expect(card).toContainText('Some Company');
      await expect(card).toContainText(t.reasonUntrusted);
      await expect(card.getByRole('tree', { name: t.chain })).toContainText('signpdf, Some Company');
      if (process.env.VERIFY_SCREENSHOTS)
        await page.screenshot({ path: `/tmp/verify-summary-${locale}.png`, fullPage: true });
      await expect(page.getByRole('link', { name: t.rootDownload })).toHaveAttribute(
        'href',
        /\/v1\/pki\/root\.crt/,
      );
    });

    test('bad input gets a clear message', async ({ page }) => {
      await page.goto('/#/pcSignVerify');
      await upload(page, t.drop, 'notes.pdf', Buffer.from('these are notes, not a PDF'));
      await expect(page.getByRole('alert')).toContainText(t.notPdf);
      await upload(page, t.drop, 'empty.pdf', Buffer.alloc(0));
      await expect(page.getByRole('alert')).toContainText(t.empty);
    });
  });

  test.describe(`verification on a 375 px phone (${locale})`, () => {
    test.use({ locale, viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

    test('/signVerify verifies a file and its card fits the screen', async ({ page }) => {
      await page.goto('/#/signVerify');
      await upload(page, t.drop, 'attacked.pdf', corpusBytes(ATTACKED));
      const card = page.getByRole('article', { name: t.signature1 });
      await expect(card).toContainText(t.sigModified);
      const box = await card.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 376).toBe(true);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(1);
      if (process.env.VERIFY_SCREENSHOTS)
        await page.screenshot({ path: `/tmp/verify-phone-${locale}.png`, fullPage: true });
    });
  });
}
