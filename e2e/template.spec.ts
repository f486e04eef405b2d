import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { expect, test } from '@playwright/test';
import { registerViaApi } from './person-support.ts';
import { actForCompany, addOperator, fingerStroke, openCompany, registerPerson } from './seal-support.ts';
import {
  call,
  fetchPdf,
  latestSigningLink,
  nextSmsCode,
  openPersonESign,
  signingTexts,
  smsCount,
  verifyWithCli,
} from './signing-support.ts';
import type { Locale } from './support.ts';

const texts = {
  'en-US': {
    upload: 'New template from a PDF',
    addText: 'Add field: text',
    addNumber: 'Add field: number',
    fieldLabel: 'Label',
    buyer: 'Buyer name',
    amount: 'Amount',
    roleA: 'Party A',
    roleB: 'Party B',
    save: 'Save',
    use: 'Use',
    contractTitle: 'Contract title',
    operatorPhone: 'Operator phone',
    operatorName: 'Operator name',
    signerName: 'Signer name',
    signerPhone: 'Signer phone',
    next: 'Next: review',
    notNumber: '"Amount" must be a number',
    send: 'Send for signing',
    sent: 'Sent for signing',
    buyerValue: '王小明 Wang',
    title: 'Sales contract from a template',
  },
  'zh-CN': {
    upload: '上传 PDF 新建模板',
    addText: '添加文本字段',
    addNumber: '添加数字字段',
    fieldLabel: '字段名称',
    buyer: '买方姓名',
    amount: '合同金额',
    roleA: '甲方',
    roleB: '乙方',
    save: '保存',
    use: '使用',
    contractTitle: '合同标题',
    operatorPhone: '经办人手机号',
    operatorName: '经办人姓名',
    signerName: '签署人姓名',
    signerPhone: '签署人手机号',
    next: '下一步：确认',
    notNumber: '“合同金额”须为数字',
    send: '发起签署',
    sent: '已发起签署',
    buyerValue: '王小明',
    title: '模板买卖合同',
  },
} as const;

/** A one-page contract with room for the fields and the two signing positions. */
async function templatePdf(): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('Sales contract', { x: 72, y: 770, size: 20, font });
  page.drawText('Buyer:', { x: 72, y: 700, size: 12, font });
  page.drawText('Amount:', { x: 72, y: 660, size: 12, font });
  page.drawText('Party A', { x: 72, y: 260, size: 14, font });
  page.drawText('Party B', { x: 340, y: 260, size: 14, font });
  const file = join(mkdtempSync(join(tmpdir(), 'esign-template-')), 'sales-template.pdf');
  writeFileSync(file, await doc.save());
  return file;
}

const pdfText = (bytes: Buffer) =>
  spawnSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: bytes }).stdout?.toString('utf8') ?? '';

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  const t = texts[locale];
  const s = signingTexts[locale];

  test.describe(`launch from a template (${locale})`, () => {
    test.use({ locale, viewport: { width: 1280, height: 900 } });

    test('a company operator makes a template and launches it for a person and the company; the person signs on a phone, the company seals on PC; both download', async ({
      browser,
      page,
    }) => {
      test.setTimeout(300_000);
      const baseURL = test.info().project.use.baseURL;

      // The company: an administrator who opens it and makes a contract seal, an operator the seal is authorised to.
      const adminContext = await browser.newContext({ locale, baseURL });
      const admin = await adminContext.newPage();
      await registerPerson(admin);
      const { companyId } = await openCompany(
        admin,
        locale === 'zh-CN' ? '杭州模板科技有限公司' : '上海模板贸易有限公司',
      );
      const seal = await call<{ id: string }>(admin.request, 'saveCompanySeal', {
        userType: 1,
        sealDTO: { userType: 1, sealType: 102, generateAntiCounterfeitNo: true, legalPersonName: '张三' },
      });
      const operatorPhone = await registerPerson(page);
      await addOperator(admin, page, operatorPhone);
      await actForCompany(page, companyId);
      const members = await call<{ list: { userId: string; phone: string; role: string }[] }>(
        admin.request,
        'searchCompanyOperator',
        { userType: 1 },
      );
      const operatorId = members.list.find((m) => m.role === 'operator')?.userId;
      expect(operatorId).toBeTruthy();
      await call(admin.request, 'authoriseSeal', {
        userType: 1,
        sealId: seal.id,
        userIds: [operatorId],
        validFrom: new Date(Date.now() - 60_000).toISOString(),
        validTo: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      });
      await adminContext.close();

      // The person: e-signature opened, then logged out: the link is all they use, on a 375 px phone.
      const phoneContext = await browser.newContext({
        locale,
        baseURL,
        viewport: { width: 375, height: 812 },
        isMobile: true,
        hasTouch: true,
      });
      const phonePage = await phoneContext.newPage();
      const personPhone = await registerViaApi(phonePage);
      await openPersonESign(phonePage.request, personPhone, s.personB);
      await phoneContext.clearCookies();

      // The operator makes the template: upload, two fields and both signing positions on the page.
      await page.goto('/#/manage/fileTemplate');
      await page.getByLabel(t.upload).setInputFiles(await templatePdf());
      await expect(page).toHaveURL(/editFileTemplate\?templateId=/, { timeout: 20_000 });
      await expect(page.locator('.pdf-page[data-page="1"][data-drawn="true"]')).toBeVisible({
        timeout: 20_000,
      });
      const sheet = page.getByTestId('template-page-1');
      await page.getByRole('button', { name: t.addText }).click();
      await sheet.click({ position: { x: 260, y: 150 } });
      await page.getByLabel(t.fieldLabel).nth(0).fill(t.buyer);
      await page.getByRole('button', { name: t.addNumber }).click();
      await sheet.click({ position: { x: 230, y: 215 } });
      await page.getByLabel(t.fieldLabel).nth(1).fill(t.amount);
      await expect(page.getByTestId('field-box')).toHaveCount(2);
      // Party A by selecting its chip and clicking the page, Party B by drag and drop.
      await page.getByTestId('place-chip').filter({ hasText: t.roleA }).click();
      await sheet.click({ position: { x: 150, y: 560 } });
      await page
        .getByTestId('place-chip')
        .filter({ hasText: t.roleB })
        .dragTo(sheet, { targetPosition: { x: 450, y: 560 } });
      await expect(page.getByTestId('position-box')).toHaveCount(2);
      await page.getByRole('button', { name: t.save }).click();
      await expect(page).toHaveURL(/fileTemplate\/preview\?templateId=/);
      await expect(page.getByTestId('position-box')).toHaveCount(2);
      await expect(page.getByTestId('field-box')).toHaveCount(2);

      // Launch from the template: choose it, fill it (a number field refuses text), name the signers, send.
      await page.goto('/#/manage/home/templateCreate');
      await page.getByRole('button', { name: t.use }).first().click();
      await expect(page).toHaveURL(/templateDetail\?templateId=/);
      await page.getByLabel(t.contractTitle).fill(t.title);
      await page.getByLabel(t.buyer).fill(t.buyerValue);
      await page.getByLabel(t.amount).fill('abc');
      await page.getByLabel(t.operatorPhone).fill(operatorPhone);
      await page.getByLabel(t.operatorName).fill(s.personA);
      await page.getByLabel(t.signerName).fill(s.personB);
      await page.getByLabel(t.signerPhone).fill(personPhone);
      await page.getByRole('button', { name: t.next }).click();
      await expect(page.getByText(t.notNumber)).toBeVisible();
      await page.getByLabel(t.amount).fill('8800.50');
      await page.getByRole('button', { name: t.next }).click();
      await expect(page).toHaveURL(/templateSign\?draftId=/, { timeout: 20_000 });
      await expect(page.getByTestId('position-box')).toHaveCount(2, { timeout: 20_000 });
      await page.getByRole('button', { name: t.send }).click();
      await expect(page.getByText(t.sent)).toBeVisible({ timeout: 30_000 });

      // The company (step 1) seals on PC from the operator's list.
      await page.goto('/#/signList');
      await page.getByRole('tab', { name: s.tabPending }).click();
      await page
        .getByRole('article', { name: t.title })
        .getByRole('button', { name: s.sign, exact: true })
        .click();
      await expect(page).toHaveURL(/#\/pc\/v1\/signing_room\?/);
      await expect(page.getByTestId('sign-position')).toBeVisible({ timeout: 20_000 });
      await page.getByRole('button', { name: s.sign, exact: true }).click();
      const pcDialog = page.getByRole('dialog');
      let before = await smsCount(page.request, operatorPhone);
      await pcDialog.getByRole('button', { name: s.getCode }).click();
      await pcDialog.getByLabel(s.smsCode).fill(await nextSmsCode(page.request, operatorPhone, before));
      await pcDialog.getByRole('button', { name: s.confirmSign }).click();
      await expect(page).toHaveURL(/#\/sign_confirm\?/, { timeout: 60_000 });
      await expect(page.getByTestId('flow-state')).toHaveText(s.waiting, { timeout: 30_000 });

      // The person (step 2) opens the link on the phone, logs in by SMS code and signs with a finger.
      const link = await latestSigningLink(phonePage.request, personPhone);
      await phonePage.goto(`/#${link}`);
      await phonePage.getByLabel(s.phone).fill(personPhone);
      before = await smsCount(phonePage.request, personPhone);
      await phonePage.getByRole('button', { name: s.getCode }).click();
      await phonePage.getByLabel(s.smsCode).fill(await nextSmsCode(phonePage.request, personPhone, before));
      await phonePage.getByRole('button', { name: s.enter }).click();
      await expect(phonePage).toHaveURL(/#\/h5\/v1\/signing_room\?/);
      await expect(phonePage.getByTestId('sign-position')).toBeVisible({ timeout: 20_000 });
      expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await expect(phonePage.getByRole('radio', { name: s.drawSignature })).toBeChecked();
      const pad = `canvas[aria-label="${s.pad}"]`;
      await phonePage.locator(pad).scrollIntoViewIfNeeded();
      await fingerStroke(phonePage, pad, [
        [0.1, 0.6],
        [0.3, 0.3],
        [0.5, 0.7],
        [0.7, 0.3],
        [0.9, 0.6],
      ]);
      await phonePage.getByRole('button', { name: s.sign, exact: true }).click();
      const dialog = phonePage.getByRole('dialog');
      before = await smsCount(phonePage.request, personPhone);
      await dialog.getByRole('button', { name: s.getCode }).click();
      await dialog.getByLabel(s.smsCode).fill(await nextSmsCode(phonePage.request, personPhone, before));
      await dialog.getByRole('button', { name: s.confirmSign }).click();
      await expect(phonePage).toHaveURL(/#\/sign_confirm\?/, { timeout: 60_000 });
      await expect(phonePage.getByTestId('flow-state')).toHaveText(s.completed, { timeout: 30_000 });

      // Both download the signed PDF (with the filled values and two signatures) and the audit report.
      const phoneHref = await phonePage.getByRole('link', { name: s.downloadSigned }).getAttribute('href');
      const phoneCopy = await fetchPdf(phonePage.request, phoneHref ?? '');
      expect(phoneCopy.startsWithPdf).toBe(true);
      expect(phoneCopy.byteRanges).toBeGreaterThanOrEqual(2);
      const text = pdfText(phoneCopy.bytes);
      expect(text).toContain(t.buyerValue);
      expect(text).toContain('8800.50');
      const phoneReport = await phonePage.getByRole('link', { name: s.downloadReport }).getAttribute('href');
      expect((await fetchPdf(phonePage.request, phoneReport ?? '')).startsWithPdf).toBe(true);

      await page.reload();
      await expect(page.getByTestId('flow-state')).toHaveText(s.completed, { timeout: 30_000 });
      const pcHref = await page.getByRole('link', { name: s.downloadSigned }).getAttribute('href');
      const pcCopy = await fetchPdf(page.request, pcHref ?? '');
      expect(pcCopy.bytes.equals(phoneCopy.bytes)).toBe(true);
      const pcReport = await page.getByRole('link', { name: s.downloadReport }).getAttribute('href');
      expect((await fetchPdf(page.request, pcReport ?? '')).startsWithPdf).toBe(true);
      const report = verifyWithCli(pcCopy.bytes);
      if (report) {
        const approvals = report.signatures.filter((x) => x.kind === 'approval');
        expect(approvals).toHaveLength(2);
        for (const a of approvals) expect(a.trustAside.indication).toBe('TOTAL_PASSED');
      }
      await phoneContext.close();
    });
  });
}
