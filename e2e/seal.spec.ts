import { expect, test } from '@playwright/test';
import {
  actForCompany,
  addOperator,
  fingerStroke,
  openCompany,
  registerPerson,
  sealTexts,
} from './seal-support.ts';
import { type Locale, latestSmsCode } from './support.ts';

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  const t = sealTexts[locale];

  test.describe(`company seals (${locale})`, () => {
    test.use({ locale });

    test('the administrator generates a contract seal and authorises it to an operator, who can then use it', async ({
      browser,
      page,
    }) => {
      const adminPhone = await registerPerson(page);
      const { companyId } = await openCompany(page, '杭州云签科技有限公司');
      const operatorContext = await browser.newContext({ locale, baseURL: test.info().project.use.baseURL });
      const operator = await operatorContext.newPage();
      const operatorPhone = await registerPerson(operator);
      await addOperator(page, operator, operatorPhone);
      await actForCompany(operator, companyId);

      // Before anything is authorised the operator has no usable seal.
      await operator.goto('/#/manage/account/stamp');
      await expect(operator.getByRole('heading', { name: t.companyTitle })).toBeVisible();
      await expect(operator.locator('.seal-card')).toHaveCount(0);

      // The administrator: choose the contract seal, see its preview, save.
      await page.goto('/#/manage/account/stamp/addStamp');
      await page.locator('label').filter({ hasText: t.contractSeal }).first().click();
      await expect(page.getByRole('radio', { name: t.contractSeal })).toBeChecked();
      const preview = page.getByRole('img', { name: `${t.preview}: ${t.contractSeal}` });
      await expect(preview).toBeVisible();
      expect(await preview.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
      await page.getByRole('button', { name: t.save }).click();
      await expect(page).toHaveURL(/#\/manage\/account\/stamp$/);
      const card = page.getByRole('article', { name: t.contractSeal });
      await expect(card).toBeVisible();
      await expect(card.getByText(t.enabled)).toBeVisible();
      // Its image is served to the administrator.
      const src = await card.getByRole('img').getAttribute('src');
      expect((await page.request.get(src ?? '')).status()).toBe(200);

      // Authorise it to the operator (the period defaults to now .. a year from now).
      await page.getByRole('button', { name: t.authorise }).click();
      // The only seal is chosen already.
      await expect(page.getByRole('radio', { name: new RegExp(t.contractSeal) })).toBeChecked();
      await page.getByRole('checkbox', { name: new RegExp(operatorPhone) }).check();
      // The authorisation comes with a letter the company signs: the administrator confirms by SMS (issue 27).
      await page.getByRole('button', { name: t.getCode }).click();
      await page
        .getByLabel(t.smsCode, { exact: true })
        .fill(await latestSmsCode(page.request, adminPhone, 'authorisation:issue'));
      await page.getByRole('button', { name: t.authoriseSubmit, exact: true }).click();
      await expect(page.getByText(t.inEffect)).toBeVisible();

      // The operator now sees the seal as usable.
      await operator.reload();
      const theirs = operator.getByRole('article', { name: t.contractSeal });
      await expect(theirs).toBeVisible();
      await expect(theirs.getByText(t.usable, { exact: true })).toBeVisible();
      await operatorContext.close();
    });
  });

  test.describe(`a person draws a signature on a phone (${locale})`, () => {
    test.use({ locale, viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

    test('draws with a finger on the pad and saves it', async ({ page }) => {
      await registerPerson(page);
      await page.goto('/#/manage/account/stamp/person/personAddStamp');
      await page.getByRole('tab', { name: t.drawTab }).click();
      const pad = page.getByRole('img', { name: t.pad });
      await expect(pad).toBeVisible();
      // The pad fits the phone and its backing store follows the device pixel ratio.
      const size = await pad.evaluate((c: HTMLCanvasElement) => ({
        css: c.getBoundingClientRect().width,
        px: c.width,
        dpr: window.devicePixelRatio,
        touchAction: getComputedStyle(c).touchAction,
      }));
      expect(size.css).toBeLessThanOrEqual(375);
      expect(size.px).toBe(Math.round(size.css * size.dpr));
      expect(size.touchAction).toBe('none');

      // Saving an empty pad is refused on the spot.
      await page.getByRole('button', { name: t.saveSignature }).click();
      await expect(page.getByText(t.padEmpty)).toBeVisible();

      const selector = 'canvas[role="img"]';
      await fingerStroke(page, selector, [
        [0.1, 0.7],
        [0.2, 0.3],
        [0.3, 0.6],
        [0.45, 0.35],
        [0.6, 0.65],
        [0.75, 0.3],
        [0.9, 0.55],
      ]);
      await expect(pad).toHaveAttribute('data-strokes', '1');
      await fingerStroke(page, selector, [
        [0.2, 0.8],
        [0.8, 0.8],
      ]);
      await expect(pad).toHaveAttribute('data-strokes', '2');
      await page.getByRole('button', { name: t.undo }).click();
      await expect(pad).toHaveAttribute('data-strokes', '1');

      await page.getByRole('button', { name: t.saveSignature }).click();
      await expect(page).toHaveURL(/#\/manage\/account\/stamp\/person$/);
      await expect(page.getByRole('heading', { name: t.personTitle })).toBeVisible();
      const card = page.getByRole('article', { name: t.drawn });
      await expect(card).toBeVisible();
      // The saved signature is a transparent PNG of the stroke, trimmed to the ink.
      const src = await card.getByRole('img').getAttribute('src');
      const png = await page.request.get(src ?? '');
      expect(png.headers()['content-type']).toBe('image/png');
      const bytes = await png.body();
      const width = bytes.readUInt32BE(16);
      const height = bytes.readUInt32BE(20);
      expect(width).toBeGreaterThan(height);
      // Nothing overflows the phone's width.
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > 376)
          .slice(0, 8)
          .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
      );
      expect(wide).toEqual([]);
    });
  });
}
