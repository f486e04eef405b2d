// A company that has only its official seal launches a contract for itself (the newcomer's journey): the
// company party offers the official seal, not a contract seal the company lacks; the launch screen checks the
// seal the party needs; the administrator seals with the official seal in the signing room.
import { expect, test } from '@playwright/test';
import { registerViaApi } from './person-support.ts';
import { openCompany } from './seal-support.ts';
import { call, launchToOwnCompany, signFromListOnPc, signingTexts } from './signing-support.ts';
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

      await launchToOwnCompany(page, t, adminPhone, async (card) => {
        // The seal the party needs is there: the official seal is offered, readiness checked it.
        await expect(page.getByTestId('signer-readiness')).toContainText(t.hasNeededSeal, {
          timeout: 20_000,
        });
        await expect(card.getByTitle(t.officialSeal, { exact: true })).toBeVisible();
      });

      // In the room the administrator's official seal is preselected, and the company seals with it.
      await signFromListOnPc(page, adminPhone, t, new RegExp(`${t.officialSeal}|公章`));
    });
  });
}
