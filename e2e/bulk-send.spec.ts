// Bulk sending (issue 28): a company administrator makes a two-role template, downloads its sheet, uploads a
// 6-row sheet with 2 bad rows; the check names them by row and column; the 4 good rows are sent after a
// confirmation; the progress reaches the end (polled) and the list of bulk sends shows the batch.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import * as XLSX from 'xlsx';
import { openCompany, registerPerson } from './seal-support.ts';
import { call } from './signing-support.ts';
import { newPhone } from './support.ts';

const roles = [
  {
    key: 'partyA',
    name: '甲方',
    kind: 'company',
    stepIndex: 0,
    applies: {
      companySealType: 102,
      legalPersonSeal: false,
      personSignature: false,
      date: false,
      crossPageSeal: false,
    },
  },
  {
    key: 'partyB',
    name: '乙方',
    kind: 'person',
    stepIndex: 1,
    applies: { legalPersonSeal: false, personSignature: true, date: false, crossPageSeal: false },
  },
];

test.describe('bulk sending (zh-CN)', () => {
  test.use({ locale: 'zh-CN', viewport: { width: 1280, height: 900 } });

  test('a 6-row sheet with 2 bad rows: the check names them, the 4 good rows are sent, the list shows the batch', async ({
    browser,
    page,
  }) => {
    test.setTimeout(300_000);
    const adminPhone = await registerPerson(page);
    const companyName = '杭州批量科技有限公司';
    await openCompany(page, companyName);

    // The template: uploaded on the template list, its roles, a field and positions saved through the call.
    await page.goto('/#/manage/fileTemplate');
    const pdf = join(mkdtempSync(join(tmpdir(), 'esign-bulk-')), 'offer.pdf');
    const { PDFDocument } = await import('@cantoo/pdf-lib');
    const doc = await PDFDocument.create();
    doc.addPage([595, 842]);
    writeFileSync(pdf, await doc.save());
    await page.getByLabel('上传 PDF 新建模板').setInputFiles(pdf);
    await expect(page).toHaveURL(/editFileTemplate\?templateId=/, { timeout: 20_000 });
    const templateId = new URL(page.url().replace('/#/', '/')).searchParams.get('templateId') ?? '';
    await call(page.request, 'saveTemplate', {
      userType: 1,
      templateId,
      name: '录用合同',
      roles,
      fields: [
        {
          key: 'amount',
          label: '合同金额',
          type: 'number',
          isRequired: true,
          page: 1,
          rect: [130, 662, 300, 682],
        },
      ],
      positions: [
        { roleKey: 'partyA', page: 1, rect: [72, 80, 200, 190] },
        { roleKey: 'partyB', page: 1, rect: [330, 130, 450, 190] },
      ],
    });

    // From the template list to the bulk page: the sheet to download, then the upload.
    await page.goto('/#/manage/fileTemplate');
    await page.getByRole('button', { name: '批量发起' }).first().click();
    await expect(page).toHaveURL(/bulkSend\?templateId=/);
    await expect(page.getByRole('heading', { name: '批量发起：录用合同' })).toBeVisible();
    await expect(page.getByRole('link', { name: '下载批量发起表格（.xlsx）' })).toBeVisible();
    const row = (name: string, phone: string, amount: string | number) => [
      companyName,
      adminPhone,
      name,
      phone,
      amount,
    ];
    const sheet = [
      ['甲方·企业名称', '甲方·经办人手机号', '乙方·姓名', '乙方·手机号', '合同金额'],
      row('王一', newPhone(), 8000),
      row('王二', newPhone(), 8100),
      row('王三', '138001', 8200), // row 4: a malformed phone
      row('王四', newPhone(), 8300),
      row('王五', newPhone(), ''), // row 6: the amount is missing
      row('王六', newPhone(), 8500),
    ];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(sheet), 'Sheet1');
    const file = join(mkdtempSync(join(tmpdir(), 'esign-bulk-')), 'contracts.xlsx');
    writeFileSync(file, XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    await page.getByLabel('上传并检查').setInputFiles(file);

    await expect(page.getByText('共读取 6 行，其中 4 行无问题。')).toBeVisible({ timeout: 30_000 });
    const problems = page.getByRole('region', { name: '问题' });
    await expect(problems.getByRole('row').filter({ hasText: '不是 11 位中国大陆手机号码' })).toContainText(
      '4',
    );
    await expect(problems.getByRole('row').filter({ hasText: '乙方·手机号' })).toHaveCount(1);
    await expect(problems.getByRole('row').filter({ hasText: '合同金额' }).last()).toContainText('6');

    await page.getByRole('button', { name: '发起 4 行无问题的合同' }).click();
    await page.getByRole('button', { name: '发起', exact: true }).click();
    // The progress survives a reload: the batch is in the address.
    await expect(page).toHaveURL(/bulkId=/);
    await page.reload();
    await expect(page.getByText('已发起 4 · 失败 0 · 共 6 行')).toBeVisible({ timeout: 120_000 });
    await expect(page.getByRole('heading', { name: '已完成' })).toBeVisible();
    await expect(page.getByRole('link', { name: '查看' })).toHaveCount(4);

    await page.goto('/#/manage/bulkSends');
    const listed = page.getByRole('row').filter({ hasText: 'contracts.xlsx' });
    await expect(listed).toContainText('录用合同');
    await expect(listed).toContainText('已完成');

    // On a 375 px phone the list and the batch's page fit the width (tables scroll inside themselves).
    const phone = await browser.newContext({
      locale: 'zh-CN',
      baseURL: test.info().project.use.baseURL,
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
      storageState: await page.context().storageState(),
    });
    const small = await phone.newPage();
    // What sticks out past the screen's right edge inside the page's own content (the header is the layout's).
    const overflow = () =>
      small.evaluate(() =>
        [...document.querySelectorAll('main.bulk-list, main.bulk-list *, main.bulk-send, main.bulk-send *')]
          .filter((e) => e.getBoundingClientRect().right > 376 && !e.closest('.ant-table-content'))
          .map((e) => `${e.tagName}.${e.className}`),
      );
    await small.goto('/#/manage/bulkSends');
    const batchRow = small.getByRole('row').filter({ hasText: 'contracts.xlsx' });
    await expect(batchRow).toBeVisible();
    expect(await overflow()).toEqual([]);
    await batchRow.getByRole('button', { name: '查看' }).click();
    await expect(small.getByText('已发起 4 · 失败 0 · 共 6 行')).toBeVisible();
    expect(await overflow()).toEqual([]);
    await phone.close();
  });
});
