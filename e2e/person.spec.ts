import { expect, type Page, test } from '@playwright/test';
import { newIdNumber, personTexts, registerViaApi } from './person-support.ts';
import { type Locale, latestSmsCode, newPhone } from './support.ts';

/** Fills the real-name form (the SMS code goes to a fresh phone) and submits it. */
async function passRealName(page: Page, t: (typeof personTexts)[Locale], idNumber: string) {
  const phone = newPhone();
  await page.getByLabel(t.name, { exact: true }).fill(t.personName);
  await page.getByLabel(t.idNumber, { exact: true }).fill(idNumber);
  await page.getByLabel(t.phone, { exact: true }).fill(phone);
  await page.getByRole('button', { name: t.getCode }).click();
  const code = await latestSmsCode(page.request, phone);
  await page.getByLabel(t.smsCode, { exact: true }).fill(code);
  await page.getByRole('button', { name: t.verify, exact: true }).click();
}

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  const t = personTexts[locale];

  test.describe(`person opens e-signature on PC (${locale})`, () => {
    test.use({ locale });

    test('real name -> agreement -> certificate, then the details show it masked', async ({ page }) => {
      await registerViaApi(page);
      await page.goto('/#/manage/personalEsign');
      await expect(page.getByText(t.devProvider).first()).toBeVisible();

      // A mistyped ID number is refused under its field before anything is sent.
      const idNumber = newIdNumber();
      const wrongCheck = idNumber.slice(0, 17) + (idNumber[17] === '0' ? '1' : '0');
      await page.getByLabel(t.idNumber, { exact: true }).fill(wrongCheck);
      await page.getByRole('button', { name: t.verify, exact: true }).click();
      await expect(page.getByText(t.checkDigit)).toBeVisible();
      await page.getByLabel(t.idNumber, { exact: true }).fill('');

      await passRealName(page, t, idNumber);
      await expect(page.getByRole('heading', { name: t.agreementTitle })).toBeVisible();
      await page.getByRole('button', { name: t.accept }).click();
      await page.getByRole('button', { name: t.issue }).click();
      await expect(page.getByText(t.done)).toBeVisible();
      const cert = page.getByTestId('person-cert');
      await expect(cert.getByText(t.serial, { exact: true })).toBeVisible();
      await expect(cert.getByTestId('cert-subject')).toContainText(t.personName);
      await expect(cert).not.toContainText('2.5.4.5'); // readable names (issue 11 edge 3)
      await expect(page.getByRole('link', { name: t.addSeal })).toBeVisible();

      await page.goto('/#/personalDetails');
      const masked = `${idNumber.slice(0, 6)}********${idNumber.slice(-4)}`;
      await expect(page.getByTestId('personal-details')).toContainText(masked);
      await expect(page.getByTestId('personal-details')).not.toContainText(idNumber);
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: t.download }).click();
      expect((await download).suggestedFilename()).toMatch(/^certificate-[0-9a-f]+\.pem$/);
    });
  });

  test.describe(`person opens e-signature on a phone (${locale})`, () => {
    test.use({ locale, viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

    test('/h5/openAccount -> basic -> verify -> finish', async ({ page }) => {
      await registerViaApi(page);
      await page.goto('/#/h5/openAccount');
      await page.getByRole('button', { name: t.start }).click();
      await expect(page).toHaveURL(/#\/mobile\/openAccount\/basic/);
      await expect(page.getByText(t.devProvider).first()).toBeVisible();
      await passRealName(page, t, newIdNumber());

      await expect(page).toHaveURL(/#\/mobile\/openAccount\/verify/);
      await expect(page.getByRole('heading', { name: t.agreementTitle })).toBeVisible();
      await page.getByRole('button', { name: t.accept }).click();

      await expect(page).toHaveURL(/#\/mobile\/openAccount\/finish/);
      await expect(page.getByText(t.finish)).toBeVisible();
      await expect(page.getByTestId('person-cert').getByTestId('cert-subject')).toContainText(t.personName);
      // Nothing wider than the phone.
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(375);
    });
  });
}
