// Issue 26: a person verifies a signed PDF whose form field was filled after signing with an opaque box over
// the signed words, and sees where the page changed: the verdict, a sentence naming page 1, and a red box
// on page 1 of the document (on a PC and on a phone). The file is made here with the product's own signer
// and an incremental update (tests/server/fixtures/pdf-covered-field.ts).
import { expect, type Page, test } from '@playwright/test';
import { coveredFieldPdf } from '../tests/server/fixtures/pdf-covered-field.ts';
import { partySigner } from '../tests/server/fixtures/pdf-signing.ts';
import { createPkiFixture } from '../tests/server/fixtures/pki.ts';
import type { Locale } from './support.ts';
import { verifyTexts } from './verify-support.ts';

const words: Record<Locale, { sentence: RegExp; regions: string; show: string; box: string }> = {
  'en-US': {
    sentence: /Page 1: a form field now covers text that was signed \(region x \d+–\d+, y \d+–\d+ pt\)\./,
    regions: 'Where a page changed after signing',
    show: 'Show',
    box: 'Changed after signing, page 1',
  },
  'zh-CN': {
    sentence: /第 1 页：表单域现在遮盖了签署时的文字（区域 x \d+–\d+，y \d+–\d+ 点）。/,
    regions: '签名后页面被改动的位置',
    show: '查看',
    box: '签名后改动，第 1 页',
  },
};

let covered: Buffer;
test.beforeAll(async () => {
  const fx = await createPkiFixture();
  try {
    const signer = await partySigner(fx, 'person-regions', '张三');
    covered = Buffer.from(await coveredFieldPdf(signer, (imprint) => fx.pki.timestamp(imprint)));
  } finally {
    fx.close();
  }
});

async function uploadCovered(page: Page, locale: Locale) {
  await page
    .getByLabel(verifyTexts[locale].drop, { exact: true })
    .setInputFiles({ name: 'covered.pdf', mimeType: 'application/pdf', buffer: covered });
}

/** The card names page 1; "show" opens the document with the red box drawn on page 1, in view. */
async function seesWhereItChanged(page: Page, locale: Locale) {
  const t = verifyTexts[locale];
  const w = words[locale];
  await expect(page.getByRole('status', { name: t.result })).toContainText(t.modified);
  const card = page.getByRole('article', { name: t.signature1 });
  await expect(card).toContainText(t.sigModified);
  const where = card.getByRole('region', { name: w.regions });
  await expect(where).toContainText(w.sentence);
  await where.getByRole('button', { name: w.show }).click();
  const box = page.locator('.pdf-page[data-page="1"]').getByRole('button', { name: w.box });
  await expect(box).toBeVisible();
  await expect(page.locator('.pdf-page[data-page="1"]')).toHaveAttribute('data-drawn', 'true', {
    timeout: 30_000,
  });
  await expect(box).toBeInViewport();
  await expect(box).toHaveCSS('border-top-color', 'rgb(207, 19, 34)');
  return box;
}

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  test.describe(`where a page changed after signing (${locale})`, () => {
    test.use({ locale });

    test('a field filled over the signed words: modified, page 1 named, a red box on page 1', async ({
      page,
    }) => {
      await page.goto('/#/check');
      await uploadCovered(page, locale);
      const box = await seesWhereItChanged(page, locale);
      await expect(page).toHaveURL(/#\/check\/checkPdf\?report=/);
      // the box leads back to the signature that reports it
      await box.click();
      await expect(page.getByRole('article', { name: verifyTexts[locale].signature1 })).toHaveClass(
        /is-selected/,
      );
      if (process.env.VERIFY_SCREENSHOTS)
        await page.screenshot({ path: `/tmp/verify-regions-${locale}.png` });
    });
  });

  test.describe(`where a page changed, on a 375 px phone (${locale})`, () => {
    test.use({ locale, viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

    test('/signVerify names page 1 and draws the red box on it', async ({ page }) => {
      await page.goto('/#/signVerify');
      await uploadCovered(page, locale);
      const box = await seesWhereItChanged(page, locale);
      const shown = await box.boundingBox();
      expect(shown && shown.x >= 0 && shown.x + shown.width <= 376).toBe(true);
      if (process.env.VERIFY_SCREENSHOTS)
        await page.screenshot({ path: `/tmp/verify-regions-phone-${locale}.png` });
    });
  });
}
