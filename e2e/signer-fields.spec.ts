// Fields the signer fills (issue 28, "Done when"): a company administrator makes a template with two roles (the
// company, step 1; a person, step 2) and four fields the person fills in the signing room (text, date,
// checkbox, attachment) in the template editor; a 20-row sheet with two bad rows goes through the bulk-send
// screen (the check names them, 18 flows are sent); the company's handler batch-signs the 18 with one SMS code;
// then one person, on a 390 px phone, opens the signing link, fills the four fields guided one by one and signs
// after the company (form filling after a signature). Every PDF is valid in pdfsig with all its signatures, and
// the values show in the flow's detail and in the open API.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { type Browser, expect, type Page, test } from '@playwright/test';
import * as XLSX from 'xlsx';
import { downloadDocument, downloadSignedPdf } from '../contract/paths/document.ts';
import { integratorApi } from './integrator-support.ts';
import { PLATFORM_ADMIN_PHONE, registerOrLogin } from './package-support.ts';
import { registerViaApi } from './person-support.ts';
import { actForCompany, addOperator, fingerStroke, openCompany } from './seal-support.ts';
import {
  call,
  enterRoomByLink,
  fetchPdf,
  latestSigningLink,
  nextSmsCode,
  openPersonESign,
  personInContext,
  personWithSeal,
  signInRoom,
  signingTexts,
  smsCount,
  uploadContract,
} from './signing-support.ts';
import { newPhone, pdfsigValidity } from './support.ts';

const s = signingTexts['zh-CN'];
const LOCALE = 'zh-CN';
/** A 1 x 1 PNG: what the person uploads as the attachment (the server judges it by its bytes). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const VALUES = { address: '上海市长宁路 1 号', startDate: '2027-01-15' };

/** A one-page offer with room for the four fields and the two signing positions. */
async function offerPdf(): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('Offer letter', { x: 72, y: 770, size: 20, font });
  page.drawText('Address:', { x: 72, y: 700, size: 12, font });
  page.drawText('Start date:', { x: 72, y: 650, size: 12, font });
  page.drawText('I have read it:', { x: 72, y: 600, size: 12, font });
  page.drawText('ID copy:', { x: 72, y: 550, size: 12, font });
  page.drawText('Party A', { x: 72, y: 260, size: 14, font });
  page.drawText('Party B', { x: 340, y: 260, size: 14, font });
  const file = join(mkdtempSync(join(tmpdir(), 'esign-fields-')), 'offer.pdf');
  writeFileSync(file, await doc.save());
  return file;
}

const person = (browser: Browser, name: string) => personInContext(browser, name, LOCALE);

/** Signings for the company: a package bought and the transfer confirmed by a platform administrator. */
async function buySignings(browser: Browser, company: Page, signings: number) {
  const context = await browser.newContext({ locale: LOCALE, baseURL: test.info().project.use.baseURL });
  const admin = await context.newPage();
  await registerOrLogin(admin.request, PLATFORM_ADMIN_PHONE[LOCALE]);
  const suffix = Math.floor(Math.random() * 1e6);
  const pkg = await call<{ id: string }>(admin.request, 'adminSavePackage', {
    name: `字段套餐${suffix}`,
    nameEn: `Fields package ${suffix}`,
    description: '',
    saleProductType: '10',
    signings,
    priceFen: 100,
    validityDays: 365,
    tiers: [],
    isActive: true,
  });
  const order = await call<{ orderNo: string }>(company.request, 'createPackageOrder', {
    userType: 1,
    packageId: pkg.id,
    copies: 1,
  });
  await call(admin.request, 'adminConfirmOrder', { orderNo: order.orderNo });
  await context.close();
}

/** "Who fills it" of the i-th field of the template editor set to the person's role, in the signing room. */
async function fillInRoom(page: Page, index: number) {
  const row = page.getByTestId('template-field').nth(index);
  await row.getByRole('combobox', { name: '由谁填写' }).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '乙方签署人' })
    .click();
  await row.getByRole('checkbox', { name: '必填' }).check();
}

test.describe('fields the signer fills (zh-CN)', () => {
  test.use({ locale: LOCALE, viewport: { width: 1280, height: 900 } });

  test('a template with room fields, 20 rows with 2 bad, 18 sent, batch-signed by the company, one person fills and signs on a phone', async ({
    browser,
  }) => {
    test.setTimeout(600_000);
    const baseURL = test.info().project.use.baseURL;

    // The company: its administrator, a contract seal, a handler the seal is authorised to.
    const admin = await person(browser, '王管理');
    const companyName = `杭州字段科技${Math.floor(Math.random() * 1e6)}有限公司`;
    const { companyId } = await openCompany(admin.page, companyName);
    const seal = await call<{ id: string }>(admin.page.request, 'saveCompanySeal', {
      userType: 1,
      sealDTO: { userType: 1, sealType: 102, generateAntiCounterfeitNo: true },
    });
    await buySignings(browser, admin.page, 40);
    const h = await person(browser, '赵经办');
    await addOperator(admin.page, h.page, h.phone);
    await actForCompany(h.page, companyId);
    const { userId } = await call<{ userId: string }>(h.page.request, 'updateLoginUserInfoCache');
    await call(admin.page.request, 'authoriseSeal', {
      userType: 1,
      sealId: seal.id,
      userIds: [userId],
      validFrom: new Date(Date.now() - 60_000).toISOString(),
      validTo: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    });

    // The person who will fill and sign on a phone: e-signature opened, then logged out (the link is all).
    const phoneContext = await browser.newContext({
      locale: LOCALE,
      baseURL,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const phonePage = await phoneContext.newPage();
    const personPhone = await registerViaApi(phonePage);
    await openPersonESign(phonePage.request, personPhone, '李雷');
    await phoneContext.clearCookies();

    // The template, made in the editor: four fields the person fills in the signing room, both positions.
    const page = admin.page;
    await page.goto('/#/manage/fileTemplate');
    await page.getByLabel('上传 PDF 新建模板').setInputFiles(await offerPdf());
    await expect(page).toHaveURL(/editFileTemplate\?templateId=/, { timeout: 20_000 });
    await expect(page.locator('.pdf-page[data-page="1"][data-drawn="true"]')).toBeVisible({
      timeout: 20_000,
    });
    await page.getByLabel('模板名称').fill('入职登记');
    const sheet = page.getByTestId('template-page-1');
    const fields = [
      { add: '添加文本字段', label: '住址', y: 150 },
      { add: '添加日期字段', label: '入职日期', y: 215 },
      { add: '添加勾选框字段', label: '我已阅读并同意', y: 280 },
      { add: '添加附件字段', label: '身份证复印件', y: 345 },
    ];
    for (const [i, f] of fields.entries()) {
      await page.getByRole('button', { name: f.add }).click();
      await sheet.click({ position: { x: 260, y: f.y } });
      await page.getByLabel('字段名称').nth(i).fill(f.label);
      // The attachment, a kind only a signer fills, goes to the last role in the room by itself.
      if (f.add !== '添加附件字段') await fillInRoom(page, i);
      await expect(page.getByTestId('template-field').nth(i)).toContainText('签署时填写');
    }
    await expect(page.getByTestId('field-box')).toHaveCount(4);
    await page.getByTestId('place-chip').filter({ hasText: '甲方' }).click();
    await sheet.click({ position: { x: 150, y: 560 } });
    await page.getByTestId('place-chip').filter({ hasText: '乙方' }).click();
    await sheet.click({ position: { x: 450, y: 560 } });
    await expect(page.getByTestId('position-box')).toHaveCount(2);
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page).toHaveURL(/fileTemplate\/preview\?templateId=/);
    const templateId = new URL(page.url().replace('/#/', '/')).searchParams.get('templateId') ?? '';
    await expect(page.getByText('签署时填写')).toHaveCount(4);

    // The launch form asks nothing for them: they are filled by 乙方 when signing.
    await page.goto(`/#/manage/home/templateDetail?templateId=${templateId}`);
    await expect(page.getByTestId('room-fields')).toContainText('住址 (文本) — 由乙方在签署时填写');
    await expect(page.getByLabel('住址')).toHaveCount(0);

    // Bulk sending: 20 rows, row 6 with a malformed phone and row 13 without a name.
    await page.goto(`/#/manage/bulkSend?templateId=${templateId}`);
    await expect(page.getByRole('heading', { name: '批量发起：入职登记' })).toBeVisible();
    const rows = Array.from({ length: 20 }, (_, i) => [
      companyName,
      h.phone,
      i === 0 ? '李雷' : i === 11 ? '' : `员工${i + 1}`,
      i === 0 ? personPhone : i === 4 ? '138001' : newPhone(),
    ]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      wb,
      XLSX.utils.aoa_to_sheet([['甲方·企业名称', '甲方·经办人手机号', '乙方·姓名', '乙方·手机号'], ...rows]),
      'Sheet1',
    );
    const file = join(mkdtempSync(join(tmpdir(), 'esign-fields-')), 'staff.xlsx');
    writeFileSync(file, XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    await page.getByLabel('上传并检查').setInputFiles(file);
    await expect(page.getByText('共读取 20 行，其中 18 行无问题。')).toBeVisible({ timeout: 30_000 });
    const problems = page.getByRole('region', { name: '问题' });
    await expect(problems.getByRole('row').filter({ hasText: '乙方·手机号' })).toContainText('6');
    await expect(problems.getByRole('row').filter({ hasText: '乙方·姓名' })).toContainText('13');
    await page.getByRole('button', { name: '发起 18 行无问题的合同' }).click();
    await page.getByRole('button', { name: '发起', exact: true }).click();
    await expect(page).toHaveURL(/bulkId=/);
    const bulkId = new URL(page.url().replace('/#/', '/')).searchParams.get('bulkId') ?? '';
    await expect(page.getByText('已发起 18 · 失败 0 · 共 20 行')).toBeVisible({ timeout: 180_000 });
    const sent = await call<{ rows: { list: { row: number; status: string; flowId: string | null }[] } }>(
      page.request,
      'getBulkSend',
      { userType: 1, bulkId, pageNum: 1, pageSize: 50 },
    );
    const flowIds = sent.rows.list.filter((r) => r.status === 'sent').map((r) => r.flowId ?? '');
    expect(flowIds).toHaveLength(18);
    const personFlowId = sent.rows.list.find((r) => r.row === 2)?.flowId ?? '';

    // The handler batch-signs the 18 with one SMS code.
    const hp = h.page;
    await hp.goto('/#/signList');
    await hp.getByRole('button', { name: '批量签署' }).click();
    await expect(hp).toHaveURL(/#\/batchSign$/);
    await hp.getByRole('checkbox', { name: /^全选（18 份/ }).check();
    await hp.getByRole('button', { name: '下一步' }).click();
    await hp.getByRole('combobox', { name: '企业印章' }).click();
    await hp.locator('.ant-select-item-option').first().click();
    await hp.getByRole('button', { name: '下一步' }).click();
    let before = await smsCount(hp.request, h.phone);
    await hp.getByRole('button', { name: '获取验证码' }).click();
    await hp.getByLabel('短信验证码').fill(await nextSmsCode(hp.request, h.phone, before));
    await hp.getByRole('button', { name: '签署 18 份文件' }).click();
    await hp.locator('.ant-popconfirm').getByRole('button', { name: '签署', exact: true }).click();
    await expect(hp.getByRole('status').filter({ hasText: '已完成：签署 18 份，未签署 0 份。' })).toBeVisible(
      {
        timeout: 180_000,
      },
    );

    // The person opens the link on a 390 px phone: the four fields, one by one, then the signature.
    const link = await latestSigningLink(phonePage.request, personPhone);
    await phonePage.goto(`/#${link}`);
    await phonePage.getByLabel(s.phone).fill(personPhone);
    before = await smsCount(phonePage.request, personPhone);
    await phonePage.getByRole('button', { name: s.getCode }).click();
    await phonePage.getByLabel(s.smsCode).fill(await nextSmsCode(phonePage.request, personPhone, before));
    await phonePage.getByRole('button', { name: s.enter }).click();
    await expect(phonePage).toHaveURL(/#\/h5\/v1\/signing_room\?/);
    expect(new URL(phonePage.url().replace('/#/', '/')).searchParams.get('flowId')).toBe(personFlowId);
    const guide = phonePage.getByTestId('field-guide');
    await expect(guide.getByTestId('field-progress')).toHaveText('第 1 项，共 4 项 — 还剩 4 项', {
      timeout: 20_000,
    });
    const signButton = phonePage.getByRole('button', { name: s.sign, exact: true });
    await expect(signButton).toBeDisabled();
    await expect(phonePage.getByTestId('fields-left')).toHaveText('还有 4 项必填内容未完成，请填写后再签署');
    await expect(phonePage.getByTestId('field-box-current')).toHaveAttribute('aria-label', '字段：住址');
    await guide.getByLabel('住址').fill(VALUES.address);
    await guide.getByRole('button', { name: '下一项' }).click();
    await expect(phonePage.getByTestId('field-box-current')).toHaveAttribute('aria-label', '字段：入职日期');
    await guide.getByLabel('入职日期').fill(VALUES.startDate);
    await guide.getByRole('button', { name: '下一项' }).click();
    await guide.getByLabel('我已阅读并同意').check();
    await guide.getByRole('button', { name: '下一项' }).click();
    await expect(guide.getByTestId('field-progress')).toHaveText('第 4 项，共 4 项 — 还剩 1 项');
    await guide
      .getByLabel('身份证复印件')
      .setInputFiles({ name: 'id-copy.png', mimeType: 'image/png', buffer: PNG });
    await expect(guide.getByRole('link', { name: 'id-copy.png' })).toBeVisible({ timeout: 20_000 });
    await expect(guide.getByTestId('field-progress')).toHaveText('第 4 项，共 4 项 — 已全部完成');
    await expect(phonePage.getByTestId('fields-left')).toHaveCount(0);
    expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // A reload keeps what was filled (saved as the person went).
    await phonePage.reload();
    await expect(guide.getByTestId('field-progress')).toHaveText('第 1 项，共 4 项 — 已全部完成', {
      timeout: 20_000,
    });
    await expect(guide.getByLabel('住址')).toHaveValue(VALUES.address);

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
    await signButton.click();
    const dialog = phonePage.getByRole('dialog');
    before = await smsCount(phonePage.request, personPhone);
    await dialog.getByRole('button', { name: s.getCode }).click();
    await dialog.getByLabel(s.smsCode).fill(await nextSmsCode(phonePage.request, personPhone, before));
    await dialog.getByRole('button', { name: s.confirmSign }).click();
    await expect(phonePage).toHaveURL(/#\/sign_confirm\?/, { timeout: 60_000 });
    await expect(phonePage.getByTestId('flow-state')).toHaveText(s.completed, { timeout: 30_000 });

    // Every PDF is valid in pdfsig with all its signatures: the person's flow with both (the company's still
    // valid after the form filling), the 17 others with the company's.
    for (const flowId of flowIds) {
      const detail = await call<{ status: string; documents: { documentId: string }[] }>(
        page.request,
        'getFlowDetail',
        { userType: 1, flowId },
      );
      const documentId = detail.documents[0].documentId;
      const isPersonFlow = flowId === personFlowId;
      expect(detail.status).toBe(isPersonFlow ? 'completed' : 'signing');
      const pdf = await fetchPdf(
        page.request,
        isPersonFlow
          ? `${downloadSignedPdf.path}/${flowId}/${documentId}`
          : `${downloadDocument.path}/${documentId}`,
      );
      // A completed flow also carries the platform's document timestamp, which pdfsig leaves unverified.
      const verdicts = pdfsigValidity(pdf.bytes);
      expect(verdicts.slice(0, isPersonFlow ? 2 : 1)).toEqual(
        isPersonFlow ? ['Signature is Valid.', 'Signature is Valid.'] : ['Signature is Valid.'],
      );
      expect(verdicts.length).toBeLessThanOrEqual(isPersonFlow ? 3 : 1);
      expect(verdicts.join(' ')).not.toMatch(/invalid|mismatch|failed/i);
    }

    // The values in the flow's detail (the launcher's list) ...
    await page.goto(`/#/signList?tab=launched&flowId=${personFlowId}`);
    const filled = page.getByRole('region', { name: '填写内容' });
    await expect(filled.getByTestId('filled-field')).toHaveCount(4, { timeout: 20_000 });
    await expect(filled.getByTestId('filled-field').filter({ hasText: '住址' })).toContainText(
      VALUES.address,
    );
    await expect(filled.getByTestId('filled-field').filter({ hasText: '入职日期' })).toContainText(
      VALUES.startDate,
    );
    await expect(filled.getByTestId('filled-field').filter({ hasText: '我已阅读并同意' })).toContainText(
      '已勾选',
    );
    const attachment = filled.getByRole('link', { name: 'id-copy.png' });
    const href = (await attachment.getAttribute('href')) ?? '';
    const res = await page.request.get(href);
    expect(res.status()).toBe(200);
    expect((await res.body()).equals(PNG)).toBe(true);

    // ... and in the open API.
    const { secret } = await call<{ secret: string }>(page.request, 'createApiKey', {
      userType: 1,
      name: 'hr',
      scopes: ['flows:read'],
    });
    const flow = await integratorApi(page, secret)<{
      fields: { label: string; value: string | boolean | null; attachment: { name: string } | null }[];
    }>('GET', `/flows/${personFlowId}`);
    const byLabel = (label: string) => flow.fields.find((f) => f.label === label);
    expect(byLabel('住址')?.value).toBe(VALUES.address);
    expect(byLabel('入职日期')?.value).toBe(VALUES.startDate);
    expect(byLabel('我已阅读并同意')?.value).toBe(true);
    expect(byLabel('身份证复印件')?.attachment?.name).toBe('id-copy.png');
    await phoneContext.close();
  });
});

test.describe('fields on an uploaded document (en-US)', () => {
  test.use({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
  const t = signingTexts['en-US'];

  test('the launcher adds two fields to a signer, places one by dragging and one by keyword; the signer fills them on PC and signs', async ({
    browser,
    page,
  }) => {
    test.setTimeout(240_000);
    // The signer: e-signature opened and a name seal, on a PC of their own.
    const signerContext = await browser.newContext({
      locale: 'en-US',
      baseURL: test.info().project.use.baseURL,
      viewport: { width: 1280, height: 900 },
    });
    const signer = await signerContext.newPage();
    const signerPhone = await personWithSeal(signer, t.personB);
    await personWithSeal(page, t.personA);

    // Quick launch: one signer with a text field and a drop-down.
    await uploadContract(page, t);
    await page.getByLabel(t.signerPhone).fill(signerPhone);
    await page.getByLabel(t.signerName).fill(t.personB);
    await expect(page.getByTestId('signer-readiness')).toHaveCount(1);
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByRole('button', { name: 'Add field' }).click();
    const rows = page.getByTestId('party-field');
    await rows.nth(0).getByLabel('Label').fill('Bank account');
    await rows.nth(1).getByLabel('Label').fill('Payment');
    await rows.nth(1).getByRole('combobox', { name: 'Kind' }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Drop-down' })
      .click();
    await rows.nth(1).getByLabel('Options (one a line)').fill('Monthly\nYearly');
    await page.getByRole('button', { name: t.next }).click();

    // Positions: the signer by dragging, the bank account by dragging, the payment by keyword (page 2).
    await expect(page.locator('.pdf-page[data-page="1"][data-drawn="true"]')).toBeVisible({
      timeout: 20_000,
    });
    const sheet = page.getByTestId('drop-page-1');
    await page
      .getByRole('button', { name: new RegExp(t.personB) })
      .first()
      .dragTo(sheet, {
        targetPosition: { x: 320, y: 420 },
      });
    await page
      .getByTestId('field-chip')
      .filter({ hasText: 'Bank account' })
      .dragTo(sheet, {
        targetPosition: { x: 320, y: 200 },
      });
    await page.getByTestId('field-chip').filter({ hasText: 'Payment' }).click();
    await page.getByLabel(t.keyword).fill('Party B');
    await page.getByRole('button', { name: t.placeByKeyword }).click();
    await expect(page.getByTestId('field-chip').filter({ hasText: 'Payment' })).toContainText('page 2');
    await expect(page.getByTestId('field-chip').filter({ hasText: 'Bank account' })).toContainText('page 1');
    await page.getByRole('button', { name: t.next }).click();
    await page.getByRole('button', { name: t.send }).click();
    await expect(page.getByText(t.sent)).toBeVisible({ timeout: 30_000 });

    // The signer: the link, the two fields in reading order (page 1, then page 2), then the signature.
    await signer.context().clearCookies();
    await enterRoomByLink(signer, signerPhone, t);
    const guide = signer.getByTestId('field-guide');
    await expect(guide.getByTestId('field-progress')).toHaveText('Field 1 of 2 — 2 left');
    await expect(signer.getByRole('button', { name: t.sign, exact: true })).toBeDisabled();
    await guide.getByLabel('Bank account').fill('6222 0000 1111');
    await guide.getByRole('button', { name: 'Next' }).click();
    await expect(signer.getByTestId('field-box-current')).toHaveAttribute('aria-label', 'Field: Payment');
    await guide.getByLabel('Payment').selectOption('Yearly');
    await expect(guide.getByTestId('field-progress')).toHaveText('Field 2 of 2 — all done');
    await signInRoom(signer, signerPhone, t);

    // The signed PDF is valid in pdfsig; the launcher reads the values.
    const href = await signer.getByRole('link', { name: t.downloadSigned }).getAttribute('href');
    const verdicts = pdfsigValidity((await fetchPdf(signer.request, href ?? '')).bytes);
    expect(verdicts[0]).toBe('Signature is Valid.');
    expect(verdicts.join(' ')).not.toMatch(/invalid|mismatch|failed/i);
    const flowId = new URL(signer.url().replace('/#/', '/')).searchParams.get('flowId') ?? '';
    const detail = await call<{ fields: { label: string; value: unknown; signedAt: string | null }[] }>(
      page.request,
      'getFlowDetail',
      { flowId },
    );
    expect(detail.fields.map((f) => [f.label, f.value, !!f.signedAt])).toEqual([
      ['Bank account', '6222 0000 1111', true],
      ['Payment', 'Yearly', true],
    ]);
    await signerContext.close();
  });
});
