// Batch signing (批量签署, issue 28): a company handler with three company flows waiting signs them at once from
// the pending list's "Batch sign" entry: select all, the contract seal chosen once, one SMS code, the progress
// until every flow is signed; each signed PDF is valid in pdfsig. Then on a 375 px phone the finished batch
// reads the same after a reload (its id is in the address). A batch of face-check flows is confirmed by one
// face check at the identity provider.
import { type Browser, expect, test } from '@playwright/test';
import { downloadSignedPdf } from '../contract/paths/document.ts';
import { uploadPdf } from './package-support.ts';
import { registerViaApi } from './person-support.ts';
import { actForCompany, addOperator, openCompany } from './seal-support.ts';
import { call, contractPdf, fetchPdf, nextSmsCode, openPersonESign, smsCount } from './signing-support.ts';
import { type Locale, pdfsigValidity } from './support.ts';

const texts = {
  'en-US': {
    batchEntry: 'Batch sign',
    selectAll: /^Select all \(3 flows/,
    next: 'Next',
    companySeal: 'Company seal',
    getCode: 'Get code',
    smsCode: 'SMS code',
    signAll: 'Sign 3 flows',
    ok: 'Sign',
    done: 'Finished: 3 signed, 0 not signed.',
    signed: 'Signed',
  },
  'zh-CN': {
    batchEntry: '批量签署',
    selectAll: /^全选（3 份/,
    next: '下一步',
    companySeal: '企业印章',
    getCode: '获取验证码',
    smsCode: '短信验证码',
    signAll: '签署 3 份文件',
    ok: '签署',
    done: '已完成：签署 3 份，未签署 0 份。',
    signed: '已签署',
  },
} as const;

async function person(browser: Browser, locale: Locale, name: string) {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const phone = await registerViaApi(page);
  await openPersonESign(page.request, phone, name);
  return { page, phone };
}

/**
 * A company with a contract seal, a handler it is authorised to, and `n` contracts the administrator launched to
 * the company (the handler receiving each), confirmed by `intent`.
 */
async function companyFlows(browser: Browser, locale: Locale, n: number, intent: 'sms' | 'face' = 'sms') {
  const admin = await person(browser, locale, '王管理');
  const { companyId } = await openCompany(admin.page, `批量签署公司${Math.floor(Math.random() * 1e6)}`);
  const seal = await call<{ id: string }>(admin.page.request, 'saveCompanySeal', {
    userType: 1,
    sealDTO: { userType: 1, sealType: 102, generateAntiCounterfeitNo: true },
  });
  const h = await person(browser, locale, '赵经办');
  await addOperator(admin.page, h.page, h.phone);
  await actForCompany(h.page, companyId);
  const { userId } = await call<{ userId: string }>(h.page.request, 'updateLoginUserInfoCache');
  const now = Date.now();
  await call(admin.page.request, 'authoriseSeal', {
    userType: 1,
    sealId: seal.id,
    userIds: [userId],
    validFrom: new Date(now - 60_000).toISOString(),
    validTo: new Date(now + 30 * 86_400_000).toISOString(),
  });
  // The administrator launches the contracts to the company, the handler receiving each.
  const file = await contractPdf();
  const flowIds: string[] = [];
  for (let i = 1; i <= n; i++) {
    const documentId = await uploadPdf(admin.page.request, file, 1);
    const { flowId } = await call<{ flowId: string }>(admin.page.request, 'launchFlow', {
      userType: 1,
      title: `Batch ${i}`,
      documentIds: [documentId],
      steps: [
        {
          parties: [
            {
              kind: 'company',
              companyId,
              operatorPhone: h.phone,
              intent,
              applies: { companySealType: 102 },
              positions: [{ documentId, page: 1, mm: { left: 20, top: 200, width: 42, height: 42 } }],
            },
          ],
        },
      ],
    });
    flowIds.push(flowId);
  }
  return { admin, h, flowIds };
}

for (const locale of ['en-US', 'zh-CN'] as Locale[]) {
  const t = texts[locale];
  test(`a handler batch-signs three company flows with one SMS code (${locale})`, async ({ browser }) => {
    test.setTimeout(300_000);
    const { admin, h, flowIds } = await companyFlows(browser, locale, 3);

    // The handler: pending list -> Batch sign -> select all -> the contract seal -> one SMS code -> sign.
    const page = h.page;
    await page.goto('/#/signList');
    await page.getByRole('button', { name: t.batchEntry }).click();
    await expect(page).toHaveURL(/#\/batchSign$/);
    for (let i = 1; i <= 3; i++)
      await expect(page.getByRole('article', { name: `Batch ${i}` })).toBeVisible();
    await page.getByRole('checkbox', { name: t.selectAll }).check();
    await page.getByRole('button', { name: t.next }).click();
    await page.getByRole('combobox', { name: t.companySeal }).click();
    await page.locator('.ant-select-item-option').first().click();
    await page.getByRole('button', { name: t.next }).click();
    const before = await smsCount(page.request, h.phone);
    await page.getByRole('button', { name: t.getCode }).click();
    await page.getByLabel(t.smsCode).fill(await nextSmsCode(page.request, h.phone, before));
    await page.getByRole('button', { name: t.signAll }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: t.ok, exact: true }).click();
    await expect(page).toHaveURL(/#\/batchSign\?batch=/);
    // The job signs in the background; the page polls until it is done.
    await expect(page.getByRole('status').filter({ hasText: t.done })).toBeVisible({ timeout: 90_000 });
    for (let i = 1; i <= 3; i++)
      await expect(
        page.getByRole('article', { name: `Batch ${i}` }).getByText(t.signed, { exact: true }),
      ).toBeVisible();

    // Every flow is completed and its signed PDF valid in pdfsig.
    for (const flowId of flowIds) {
      const detail = await call<{ status: string; documents: { documentId: string }[] }>(
        admin.page.request,
        'getFlowDetail',
        { userType: 1, flowId },
      );
      expect(detail.status).toBe('completed');
      const pdf = await fetchPdf(
        admin.page.request,
        `${downloadSignedPdf.path}/${flowId}/${detail.documents[0].documentId}`,
      );
      const verdicts = pdfsigValidity(pdf.bytes);
      expect(verdicts[0]).toBe('Signature is Valid.');
      expect(verdicts.join(' ')).not.toMatch(/invalid|mismatch|failed/i);
    }

    // On a 375 px phone, the batch's address shows the same results after a reload, without a sideways scroll.
    const url = page.url().replace('/#/batchSign', '/#/mobile/batchSign');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(url);
    await page.reload();
    await expect(page.getByRole('status').filter({ hasText: t.done })).toBeVisible({ timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
}

// A batch whose flows ask for a face check: one face check at the identity provider (the development provider's
// page), back on the batch page with the batch in the address, and every flow signed with it.
test('a handler confirms a batch of face-check flows with one face check (zh-CN)', async ({ browser }) => {
  test.setTimeout(300_000);
  const t = texts['zh-CN'];
  const { admin, h, flowIds } = await companyFlows(browser, 'zh-CN', 2, 'face');
  const page = h.page;
  await page.goto('/#/batchSign');
  await page.getByRole('checkbox', { name: /^全选（2 份/ }).check();
  await page.getByRole('button', { name: t.next }).click();
  await page.getByRole('combobox', { name: t.companySeal }).click();
  await page.locator('.ant-select-item-option').first().click();
  await page.getByRole('button', { name: t.next }).click();
  await expect(page.getByText(/本批次通过人脸识别确认意愿/)).toBeVisible();
  await page.getByRole('button', { name: '开始人脸识别' }).click();
  // The provider's page, then its result page, then back to the batch.
  await page.getByRole('button', { name: /模拟：识别通过/ }).click();
  await page.getByRole('button', { name: '继续签署' }).click();
  await expect(page).toHaveURL(/#\/batchSign\?faceBatch=/);
  await expect(page.getByText(/人脸识别确认 2 份文件/)).toBeVisible();
  await page.getByRole('button', { name: '签署 2 份文件' }).click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: t.ok, exact: true }).click();
  await expect(page).toHaveURL(/#\/batchSign\?batch=/);
  await expect(page.getByRole('status').filter({ hasText: '已完成：签署 2 份，未签署 0 份。' })).toBeVisible({
    timeout: 90_000,
  });
  for (const flowId of flowIds) {
    const trail = await call<{ entries: { event: string; detail: string | null }[] }>(
      admin.page.request,
      'getAuditTrail',
      { userType: 1, flowId },
    );
    expect(trail.entries.find((e) => e.event === 'sign')?.detail).toMatch(/人脸|face/i);
  }
});
