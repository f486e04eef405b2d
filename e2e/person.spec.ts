import { expect, type Page, test } from '@playwright/test';
import { newIdNumber, personTexts, registerViaApi } from './person-support.ts';
import { call, nextSmsCode, personWithSeal, smsCount } from './signing-support.ts';
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

test.describe('signing password in the workspace (en-US)', () => {
  test.use({ locale: 'en-US' });

  test('set on /personalDetails with a code to the own phone; a wrong code is refused; the state shows when', async ({
    page,
  }) => {
    const phone = await personWithSeal(page, '赵六');
    await page.goto('/#/personalDetails');
    const card = page.getByTestId('signing-password');
    await expect(card.getByRole('status')).toHaveText('Not set yet.', { timeout: 20_000 });
    await card.getByRole('button', { name: 'Set a signing password' }).click();
    await expect(card).toContainText(`The code goes to ${phone.slice(0, 3)}****${phone.slice(-4)}.`);
    const before = await smsCount(page.request, phone);
    await card.getByRole('button', { name: 'Get code' }).click();
    const code = await nextSmsCode(page.request, phone, before);
    await expect(card.getByRole('button', { name: /Again in \d+ s/ })).toBeDisabled();

    await card.getByLabel('New signing password', { exact: true }).fill('pass-1234');
    await card.getByLabel('Repeat the new signing password').fill('pass-1234');
    // A code that is not the one sent: the server refuses, nothing is set.
    await card.getByLabel('SMS code', { exact: true }).fill(code === '000000' ? '111111' : '000000');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('the SMS code is wrong, expired or already used')).toBeVisible();
    expect((await call<{ isSet: boolean }>(page.request, 'getSigningPassword')).isSet).toBe(false);

    await card.getByLabel('SMS code', { exact: true }).fill(code);
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(card.getByRole('status')).toHaveText(/^Set on /);
    await expect(card.getByRole('button', { name: 'Change the signing password' })).toBeVisible();
    expect(await call(page.request, 'getSigningPassword')).toMatchObject({ isSet: true, lockedUntil: null });
  });
});
