// The contract centre (合同中心, issue 29): a person who launched two contracts opens "合同中心" from the
// workspace menu, finds one by a party's name, makes a tag and tags it, makes a folder and puts it there,
// filters by the tag, then selects both and downloads their zip (a real zip of the PDFs). On a 375 px phone the
// centre shows cards that fit the width.
import { type Browser, expect, test } from '@playwright/test';
import { uploadPdf } from './package-support.ts';
import { registerViaApi } from './person-support.ts';
import { call, contractPdf, openPersonESign } from './signing-support.ts';
import { newPhone } from './support.ts';

async function launcher(browser: Browser) {
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const phone = await registerViaApi(page);
  await openPersonESign(page.request, phone, '陈发起');
  return { page, context };
}

async function launchTo(page: import('@playwright/test').Page, title: string, name: string) {
  const documentId = await uploadPdf(page.request, await contractPdf(), 0);
  await call(page.request, 'launchFlow', {
    userType: 0,
    title,
    documentIds: [documentId],
    steps: [
      {
        parties: [
          {
            kind: 'person',
            name,
            phone: newPhone(),
            positions: [{ documentId, page: 1, mm: { left: 20, top: 200, width: 40, height: 20 } }],
          },
        ],
      },
    ],
  });
}

test('find a contract by a party, tag it, file it, filter by the tag, download a zip of two', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { page, context } = await launcher(browser);
  const suffix = Math.floor(Math.random() * 1e6);
  await launchTo(page, `租赁合同 ${suffix}`, '钱多多');
  await launchTo(page, `采购合同 ${suffix}`, '孙小小');

  await page.goto('/#/manage/home');
  await page.getByRole('menuitem', { name: '合同', exact: true }).click();
  await page.getByRole('menuitem', { name: '合同中心' }).click();
  await expect(page.getByRole('heading', { name: '合同中心' })).toBeVisible();
  const rows = page.getByTestId('centre-row');
  await expect(rows).toHaveCount(2);

  // Find by a party's name.
  const search = page.getByPlaceholder('标题、签署方、完整手机号或填写内容');
  await search.fill('钱多多');
  await search.press('Enter');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`租赁合同 ${suffix}`);

  // A tag and a folder of the account.
  await page.getByTestId('new-tag').click();
  await page.getByTestId('new-tag-name').fill('重要');
  await page.getByTestId('new-tag-save').click();
  await page.getByTestId('new-folder').click();
  await page.getByTestId('new-folder-name').fill('2026 租赁');
  await page.getByTestId('new-folder-save').click();

  // Select the found contract, tag it and file it.
  await page
    .getByRole('row')
    .filter({ hasText: `租赁合同 ${suffix}` })
    .getByRole('checkbox')
    .check();
  await expect(page.getByTestId('centre-selection')).toContainText('已选 1 份合同');
  await page.getByTestId('tag-selected').click();
  await page.locator('.ant-select-dropdown:visible').getByText('重要', { exact: true }).click();
  await expect(rows.first().locator('.ant-tag', { hasText: '重要' })).toBeVisible();
  await page.getByTestId('move-selected').click();
  await page.locator('.ant-select-dropdown:visible').getByText('2026 租赁', { exact: true }).click();
  await expect(page.getByRole('row').filter({ hasText: `租赁合同 ${suffix}` })).toContainText('2026 租赁');

  // Clear the search, filter by the tag: only the tagged one.
  await page.getByRole('button', { name: '清除筛选' }).click();
  await expect(rows).toHaveCount(2);
  await page.getByTestId('filter-tags').click();
  await page.locator('.ant-select-dropdown:visible').getByText('重要', { exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`租赁合同 ${suffix}`);

  // Both selected, one zip.
  await page.getByRole('button', { name: '清除筛选' }).click();
  await expect(rows).toHaveCount(2);
  await page
    .getByRole('row')
    .filter({ hasText: `采购合同 ${suffix}` })
    .getByRole('checkbox')
    .check();
  await page
    .getByRole('row')
    .filter({ hasText: `租赁合同 ${suffix}` })
    .getByRole('checkbox')
    .check();
  await expect(page.getByTestId('centre-selection')).toContainText('已选 2 份合同');
  await page.getByTestId('zip-selected').click();
  await expect(page.getByTestId('zip-download')).toContainText('2 份合同');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('zip-download').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^contracts-.*\.zip$/);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const zip = Buffer.concat(chunks);
  expect(zip.subarray(0, 2).toString()).toBe('PK');
  // Two flows' folders, each with its PDF (names stored in UTF-8 in the central directory).
  expect(zip.includes(Buffer.from(`租赁合同 ${suffix}`))).toBe(true);
  expect(zip.includes(Buffer.from(`采购合同 ${suffix}`))).toBe(true);

  // A 375 px phone: cards that fit the width.
  const phoneScreen = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };
  const baseURL = test.info().project.use.baseURL;
  const phone = await browser.newContext({
    locale: 'zh-CN',
    baseURL,
    ...phoneScreen,
    storageState: await context.storageState(),
  });
  const small = await phone.newPage();
  // The phone's workspace menu (behind the header's menu button) has the entry too.
  await small.goto('/#/manage/home');
  await small.getByTestId('menu-button').click();
  await small.getByRole('menuitem', { name: '合同', exact: true }).click();
  await small.getByRole('menuitem', { name: '合同中心' }).click();
  await expect(small.getByTestId('centre-row')).toHaveCount(2);
  await small.waitForTimeout(500); // the menu's closing animation
  const overflow = await small.evaluate(() =>
    [...document.querySelectorAll('main.contracts-centre, main.contracts-centre *')]
      .filter((e) => e.getBoundingClientRect().right > 376)
      .map((e) => `${e.tagName}.${e.className}`),
  );
  expect(overflow).toEqual([]);
  await phone.close();
  await context.close();
});
