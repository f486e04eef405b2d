// A company that has only its official seal launches a contract for itself (the newcomer's journey): the
// company party offers the official seal, not a contract seal the company lacks; the launch screen checks the
// seal the party needs; the administrator seals with the official seal in the signing room.
import { expect, test } from '@playwright/test';
import { registerViaApi } from './person-support.ts';
import { openCompany } from './seal-support.ts';
import { call, signFromListOnPc, signingTexts, uploadContract } from './signing-support.ts';
import type { Locale } from './support.ts';

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  const t = signingTexts[locale];

  test.describe(`company seal at launch (${locale})`, () => {
    test.use({ locale, viewport: { width: 1280, height: 900 } });

    test('a company with only its official seal launches for itself and seals with it', async ({ page }) => {
      test.setTimeout(180_000);
      const adminPhone = await registerViaApi(page);
      await openCompany(page, `${t.companyName}${Math.floor(Math.random() * 1e6)}`);
      await call(page.request, 'saveCompanySeal', {
        userType: 1,
        sealDTO: { userType: 1, sealType: 1, generateAntiCounterfeitNo: true },
      });

      await uploadContract(page, t);
      const card = page.getByTestId('party-card');
      await card.getByText(t.partyCompany, { exact: true }).click();
      await card.getByLabel(t.operatorPhone).fill(adminPhone);
      // The seal the party needs is there: the official seal is offered, readiness checked it.
      await expect(page.getByTestId('signer-readiness')).toContainText(t.hasNeededSeal, { timeout: 20_000 });
      await expect(card.getByTitle(t.officialSeal, { exact: true })).toBeVisible();
      await page.getByRole('button', { name: t.next }).click();

      await expect(page.locator('.pdf-page[data-page="1"][data-drawn="true"]')).toBeVisible({
        timeout: 20_000,
      });
      await page.getByLabel(t.keyword).fill('Party A');
      await page.getByRole('button', { name: t.placeByKeyword }).click();
      await expect(page.getByTestId('placed-box')).toHaveCount(1);
      await page.getByRole('button', { name: t.next }).click();
      await page.getByRole('button', { name: t.send }).click();
      await expect(page.getByText(t.sent)).toBeVisible({ timeout: 30_000 });

      // In the room the administrator's official seal is preselected, and the company seals with it.
      await signFromListOnPc(page, adminPhone, t, new RegExp(`${t.officialSeal}|公章`));
    });
  });
}
