// Helpers of e2e/term-drafts.spec.ts (issue 29).
import { type Browser, expect, type Page, test } from '@playwright/test';
import { personWithSeal, signingTexts } from './signing-support.ts';

const t = signingTexts['en-US'];

/** A person with e-signature opened and a name seal, logged in on a PC page of their own (en-US). */
export async function personOnPc(browser: Browser, name: string) {
  const context = await browser.newContext({
    locale: 'en-US',
    timezoneId: 'Asia/Shanghai',
    baseURL: test.info().project.use.baseURL,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  return { context, page, phone: await personWithSeal(page, name) };
}

/** From the signers step: on to the positions, the one signer placed at `keyword`, on to the review, sent. */
export async function placeByKeywordAndSend(page: Page, keyword: string) {
  await expect(page.getByTestId('signer-readiness')).toHaveCount(1);
  await page.getByRole('button', { name: t.next }).click();
  await expect(page.locator('.pdf-page[data-page="1"][data-drawn="true"]')).toBeVisible({ timeout: 20_000 });
  await page.getByLabel(t.keyword).fill(keyword);
  await page.getByRole('button', { name: t.placeByKeyword }).click();
  await expect(page.getByTestId('placed-box')).toHaveCount(1);
  await page.getByRole('button', { name: t.next }).click();
  await page.getByRole('button', { name: t.send }).click();
  await expect(page.getByText(t.sent)).toBeVisible({ timeout: 30_000 });
}
