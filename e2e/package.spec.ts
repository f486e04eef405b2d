import { expect, test } from '@playwright/test';
import XLSX from 'xlsx';
import {
  packageTexts,
  PLATFORM_ADMIN_PHONE,
  quantitiesOf,
  registerOrLogin,
  signByLink,
  uploadPdf,
} from './package-support.ts';
import { registerViaApi } from './person-support.ts';
import { openCompany, registerPerson } from './seal-support.ts';
import { call, contractPdf, openPersonESign } from './signing-support.ts';
import type { Locale } from './support.ts';

for (const locale of ['en-US', 'zh-CN'] as Locale[]) {
  const t = packageTexts[locale];

  test.describe(`packages (${locale})`, () => {
    test.use({ locale, viewport: { width: 1280, height: 900 } });

    test('a company buys a package, sees the payment notes; an administrator confirms; a launch reserves, a completion uses, the usage exports', async ({
      browser,
      page,
    }) => {
      test.setTimeout(240_000);
      const baseURL = test.info().project.use.baseURL;
      const suffix = `${locale}-${Date.now() % 100000}`;

      // The platform administrator: a package on sale, made through the admin call.
      const adminContext = await browser.newContext({
        locale,
        baseURL,
        viewport: { width: 1280, height: 900 },
      });
      const adminPage = await adminContext.newPage();
      await registerOrLogin(adminPage.request, PLATFORM_ADMIN_PHONE[locale]);
      const pkg = await call<{ id: string; name: string; nameEn: string }>(
        adminPage.request,
        'adminSavePackage',
        {
          name: `测试套餐${suffix}`,
          nameEn: `Test package ${suffix}`,
          description: '',
          saleProductType: '10',
          signings: 5,
          priceFen: 12345,
          validityDays: 365,
          tiers: [],
          isActive: true,
        },
      );
      const pkgName = locale === 'zh-CN' ? pkg.name : pkg.nameEn;

      // The company meets the preconditions: verified (certificate), a contract seal; its administrator
      // counts as its operator.
      await registerPerson(page);
      await openCompany(page, `套餐测试${suffix}有限公司`);
      await call(page.request, 'saveCompanySeal', {
        userType: 1,
        sealDTO: { userType: 1, sealType: 102, generateAntiCounterfeitNo: true },
      });
      const before = await quantitiesOf(page.request, 1);

      // Buy: the package list, the buy screen with 2 copies, checkout, the payment notes.
      await page.goto('/#/manage/productList');
      await page.getByRole('button', { name: `${t.buy} ${pkgName}` }).click();
      await expect(page).toHaveURL(/#\/buy\/package\?packageId=/);
      await expect(page.getByRole('radio', { name: new RegExp(pkgName) })).toBeChecked();
      const copies = page.getByLabel(t.copies);
      await copies.fill('2');
      await copies.blur();
      await expect(page.getByTestId('total-signings')).toHaveText('10');
      await page.getByRole('button', { name: t.checkout }).click();
      await expect(page).toHaveURL(/#\/buy\/checkout\?orderNo=/);
      const notes = page.getByTestId('payment-notes');
      await expect(notes).toBeVisible();
      const orderNo = (await page.getByTestId('order-no').textContent()) ?? '';
      expect(orderNo).toMatch(/^PK\d{8}[A-Z2-9]{6}$/);
      await expect(notes.getByTestId('payment-reference')).toHaveText(orderNo);
      await expect(notes.getByText('¥246.90')).toBeVisible();
      await expect(notes.getByText(t.devBank)).toBeVisible();
      await expect(page.getByTestId('order-status')).toHaveText(t.awaiting);
      expect((await quantitiesOf(page.request, 1)).totalQuantitySum).toBe(before.totalQuantitySum);

      // The administrator confirms the transfer on the administrator screen.
      await adminPage.goto('/#/manage/admin/packages');
      await adminPage.getByRole('button', { name: `${t.confirm} ${orderNo}` }).click();
      await adminPage.getByRole('dialog').getByRole('button', { name: t.confirm }).click();
      await expect(adminPage.getByRole('button', { name: `${t.confirm} ${orderNo}` })).toHaveCount(0);

      // The company's remaining quantity rises by 2 x 5.
      await page.getByRole('button', { name: /Refresh|刷新/ }).click();
      await expect(page.getByTestId('order-status')).toHaveText(t.paid);
      const paid = await quantitiesOf(page.request, 1);
      expect(paid.remainQuantity).toBe(before.remainQuantity + 10);
      expect(paid.totalQuantitySum).toBe(before.totalQuantitySum + 10);
      await page.goto('/#/manage/productList');
      await expect(page.getByTestId('quantities')).toHaveText(
        t.quantities(paid.totalQuantitySum, 0, 0, paid.remainQuantity),
      );

      // A launch reserves one unit; the signer's completion uses it.
      const signerContext = await browser.newContext({ locale, baseURL });
      const signerPage = await signerContext.newPage();
      const signerPhone = await registerViaApi(signerPage);
      await openPersonESign(signerPage.request, signerPhone, '李签署');
      const seal = await call<{ id: string }>(signerPage.request, 'savePersonSeal', {
        sealDTO: { userType: 0 },
      });
      await signerContext.clearCookies();

      const documentId = await uploadPdf(page.request, await contractPdf(), 1);
      const title = `Package journey ${suffix}`;
      await call(page.request, 'launchFlow', {
        userType: 1,
        title,
        documentIds: [documentId],
        steps: [
          {
            parties: [
              {
                kind: 'person',
                name: 'signer',
                phone: signerPhone,
                positions: [{ documentId, page: 2, rect: [340, 200, 440, 250] }],
              },
            ],
          },
        ],
      });
      const launched = await quantitiesOf(page.request, 1);
      expect(launched).toMatchObject({ totalReserveQuantity: 1, remainQuantity: paid.remainQuantity - 1 });
      await page.goto('/#/manage/account/accountInfo/userPackageDetail');
      await expect(page.getByTestId('usage-table').getByRole('row').filter({ hasText: title })).toContainText(
        t.reserved,
      );

      expect(await signByLink(signerPage.request, signerPhone, seal.id)).toBe('completed');
      const completed = await quantitiesOf(page.request, 1);
      expect(completed).toMatchObject({
        totalReserveQuantity: 0,
        totalUseQuantity: 1,
        remainQuantity: paid.remainQuantity - 1,
      });

      // The usage detail shows the used unit from the package and exports the same rows.
      await page.reload();
      const row = page.getByTestId('usage-table').getByRole('row').filter({ hasText: title });
      await expect(row).toContainText(t.used);
      await expect(row).toContainText(pkgName);
      const shown = await page
        .getByTestId('usage-table')
        .locator('tbody tr:not(.ant-table-placeholder):not([aria-hidden])')
        .evaluateAll((trs) =>
          trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
        );
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: t.export }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
      const bytes = await (await download.createReadStream()).toArray();
      const book = XLSX.read(Buffer.concat(bytes), { type: 'buffer' });
      const sheet = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]], {
        header: 1,
        defval: '',
      });
      expect(sheet[0]).toEqual(t.sheetHeader);
      expect(sheet.slice(1).map((r) => r.map(String))).toEqual(shown);
      expect(shown.some((r) => r[0] === title && r[3] === t.used && r[5] === pkgName)).toBe(true);

      await adminContext.close();
      await signerContext.close();
    });
  });

  test.describe(`cost calculator on a phone (${locale})`, () => {
    test.use({ locale, viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

    test('quantity and price follow the number rules and the total counts up', async ({ page }) => {
      await page.goto('/#/costCalculator');
      const quantity = page.getByLabel(t.calcQuantity);
      const price = page.getByLabel(t.calcUnitPrice);
      await quantity.fill('abc25x');
      await quantity.blur();
      await expect(quantity).toHaveValue('25');
      await price.fill('3.456');
      await price.blur();
      await expect(price).toHaveValue('3.46');
      await expect(page.getByTestId('calc-total')).toHaveText('¥86.50');
      // Nothing is wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    });
  });
}
