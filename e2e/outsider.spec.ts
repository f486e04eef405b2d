// Issue 11: anyone with the link can sign. A launcher sends a contract to a phone that has no account; the
// recipient opens the link in a fresh browser, onboards inside the signing room (real name, certificate
// agreement) and signs; the launcher sees it signed and signs too; the signed PDF carries both signatures,
// each "Signature is Valid" for pdfsig. On a 375 px phone and on a PC, in both languages; plus a name that
// differs from the launcher's, stopped with a clear message the launcher sees.
import { type Browser, expect, type Page, test } from '@playwright/test';
import { newCreditCode, paidAmount } from './company-support.ts';
import { newIdNumber } from './person-support.ts';
import { fingerStroke } from './seal-support.ts';
import {
  personWithSeal,
  enterRoomByLink,
  fetchPdf,
  nextSmsCode,
  signingTexts,
  smsCount,
  uploadContract,
} from './signing-support.ts';
import { type Locale, newPhone, pdfsigValidity } from './support.ts';

const outsiderTexts = {
  'en-US': {
    ...signingTexts['en-US'],
    outsider: 'Carol',
    noAccount: 'No account yet',
    hasCertificate: 'Has a certificate',
    addMyself: 'Add myself',
    roomHint: /confirm your real name and receive a certificate/,
    fullName: 'Full name',
    idNumber: 'ID card number',
    verifiedPhone: 'Phone (verified)',
    next: 'Next',
    accept: 'Accept and get my certificate',
    tabLaunched: 'Launched',
    detail: 'Detail',
    progressSigned: 'Signed',
    mismatch: /differs from the signer name the sender gave/,
    stopped: /Onboarding stopped/,
    welcome: /Carol/,
    companyKind: 'Company',
    otherCompany: 'Another company',
    companyNameLabel: 'Company name (as registered)',
    operatorName: 'Operator name',
    companyNotOpen: 'Company not opened',
    invite: /Invite this company/,
    handler: 'Daniel Lee',
    creditCode: 'Unified social credit code',
    verifyCompany: 'Verify the company',
    amount: 'Amount received (yuan)',
    confirmCompany: 'Confirm and open',
  },
  'zh-CN': {
    ...signingTexts['zh-CN'],
    outsider: '陈晓',
    noAccount: '未注册',
    hasCertificate: '已有证书',
    addMyself: '添加我自己',
    roomHint: /确认实名信息并获得数字证书/,
    fullName: '姓名',
    idNumber: '身份证号',
    verifiedPhone: '手机号（已验证）',
    next: '下一步',
    accept: '同意并申请证书',
    tabLaunched: '已发起',
    detail: '详情',
    progressSigned: '已签署',
    mismatch: /与发起方填写的签署人姓名/,
    stopped: /认证未通过/,
    welcome: /陈晓/,
    companyKind: '企业',
    otherCompany: '其他企业',
    companyNameLabel: '企业名称（注册名称）',
    operatorName: '经办人姓名',
    companyNotOpen: '企业未开通',
    invite: /邀请该企业/,
    handler: '李大伟',
    creditCode: '统一社会信用代码',
    verifyCompany: '核验企业',
    amount: '收到的金额（元）',
    confirmCompany: '确认并开通',
  },
} as const;
type T = (typeof outsiderTexts)[Locale];
type Device = 'phone' | 'pc';

/** The launcher: e-signature opened and a name seal, logged in on a PC page; the contract uploaded. */
async function launcherReady(page: Page, t: T): Promise<string> {
  const phone = await personWithSeal(page, t.personA);
  await uploadContract(page, t);
  return phone;
}

/** Signers: the outsider's phone and name typed (readiness: no account), the launcher by "Add myself". */
async function chooseSigners(page: Page, t: T, outsiderPhone: string, outsiderName: string) {
  await page.getByLabel(t.signerPhone).fill(outsiderPhone);
  await page.getByLabel(t.signerName).fill(outsiderName);
  const cards = page.getByTestId('party-card');
  await expect(cards.nth(0).getByTestId('signer-readiness')).toContainText(t.noAccount);
  await page.getByRole('button', { name: t.addMyself }).click();
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(1).getByTestId('signer-readiness')).toContainText(t.hasCertificate);
  await page.getByRole('button', { name: t.next }).click();
}

/** Place the outsider by dragging onto page 1 and the launcher by the keyword "Party A"; send. */
async function placeAndSend(page: Page, t: T, outsiderName: string) {
  await expect(page.locator('.pdf-page[data-page="1"][data-drawn="true"]')).toBeVisible({ timeout: 20_000 });
  await page
    .getByRole('button', { name: new RegExp(outsiderName) })
    .dragTo(page.getByTestId('drop-page-1'), { targetPosition: { x: 320, y: 420 } });
  await expect(page.getByTestId('placed-box')).toHaveCount(1);
  await page
    .getByRole('button', { name: new RegExp(t.personA) })
    .first()
    .click();
  await page.getByLabel(t.keyword).fill('Party A');
  await page.getByRole('button', { name: t.placeByKeyword }).click();
  await expect(page.getByTestId('placed-box')).toHaveCount(2);
  await page.getByRole('button', { name: t.next }).click();
  await page.getByRole('button', { name: t.send }).click();
  await expect(page.getByText(t.sent)).toBeVisible({ timeout: 30_000 });
}

/** A fresh browser for the recipient: nothing of the launcher's, no account, no cookies. */
async function recipientBrowser(browser: Browser, locale: Locale, device: Device) {
  const context = await browser.newContext({
    locale,
    baseURL: test.info().project.use.baseURL,
    ...(device === 'phone'
      ? { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true }
      : { viewport: { width: 1280, height: 900 } }),
  });
  return { context, page: await context.newPage() };
}

/** Open the link and log in to the room with the SMS code of the launcher-entered phone. */
async function enterRoom(page: Page, phone: string, t: T, device: Device) {
  await enterRoomByLink(page, phone, t);
  await expect(page).toHaveURL(
    device === 'phone' ? /#\/h5\/v1\/signing_room\?/ : /#\/pc\/v1\/signing_room\?/,
  );
  await expect(page.getByText(t.roomHint)).toBeVisible();
}

/** "Sign" in the room leads to the room's own name-authentication step, name prefilled, phone fixed. */
async function startOnboarding(page: Page, phone: string, t: T, device: Device, name: string) {
  await page.getByRole('button', { name: t.sign, exact: true }).click();
  await expect(page).toHaveURL(
    device === 'phone' ? /#\/h5\/v1\/nameAuthentication\?/ : /#\/pc\/v1\/nameAuthentication\?/,
  );
  await expect(page.getByLabel(t.fullName)).toHaveValue(name);
  const phoneField = page.getByLabel(t.verifiedPhone);
  await expect(phoneField).toBeDisabled();
  await expect(phoneField).toHaveValue(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
}

async function drawSignature(page: Page, t: T, device: Device) {
  await expect(page.getByRole('radio', { name: t.drawSignature })).toBeChecked();
  const pad = `canvas[aria-label="${t.pad}"]`;
  await page.locator(pad).scrollIntoViewIfNeeded();
  const points: [number, number][] = [
    [0.1, 0.6],
    [0.3, 0.3],
    [0.5, 0.7],
    [0.7, 0.3],
    [0.9, 0.6],
  ];
  if (device === 'phone') return fingerStroke(page, pad, points);
  const box = (await page.locator(pad).boundingBox())!;
  const at = ([fx, fy]: [number, number]) => [box.x + fx * box.width, box.y + fy * box.height] as const;
  await page.mouse.move(...at(points[0]));
  await page.mouse.down();
  for (const p of points.slice(1)) await page.mouse.move(...at(p), { steps: 5 });
  await page.mouse.up();
}

async function confirmWithCode(page: Page, phone: string, t: T) {
  await page.getByRole('button', { name: t.sign, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const before = await smsCount(page.request, phone);
  await dialog.getByRole('button', { name: t.getCode }).click();
  await dialog.getByLabel(t.smsCode).fill(await nextSmsCode(page.request, phone, before));
  await dialog.getByRole('button', { name: t.confirmSign }).click();
  await expect(page).toHaveURL(/#\/sign_confirm\?/, { timeout: 60_000 });
  await expect(page.getByText(t.resultSigned)).toBeVisible();
}

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  const t = outsiderTexts[locale];
  test.describe(`outsider (${locale})`, () => {
    test.use({ locale, viewport: { width: 1280, height: 900 } });
    for (const device of ['phone', 'pc'] as Device[]) {
      test(`a person with no account signs from the link alone (${device}, ${locale})`, async ({
        browser,
        page,
      }) => {
        test.setTimeout(240_000);
        const outsiderPhone = newPhone();
        const launcherPhone = await launcherReady(page, t);
        await chooseSigners(page, t, outsiderPhone, t.outsider);
        await placeAndSend(page, t, t.outsider);

        const r = await recipientBrowser(browser, locale, device);
        const started = Date.now();
        await enterRoom(r.page, outsiderPhone, t, device);
        await startOnboarding(r.page, outsiderPhone, t, device, t.outsider);
        await r.page.getByLabel(t.idNumber).fill(newIdNumber());
        await r.page.getByRole('button', { name: t.next }).click();
        if (device === 'phone') await expect(r.page).toHaveURL(/#\/h5\/v1\/userAgreement\?/);
        await r.page.getByRole('button', { name: t.accept }).click();
        // Back at the same room, its position in view, ready to sign.
        await expect(r.page).toHaveURL(
          device === 'phone' ? /#\/h5\/v1\/signing_room\?/ : /#\/pc\/v1\/signing_room\?/,
        );
        await expect(r.page.getByTestId('sign-position')).toBeVisible({ timeout: 20_000 });
        await expect(r.page.getByText(t.roomHint)).toHaveCount(0);
        await drawSignature(r.page, t, device);
        await confirmWithCode(r.page, outsiderPhone, t);
        const seconds = (Date.now() - started) / 1000;
        test.info().annotations.push({ type: 'link to signed', description: `${seconds.toFixed(1)} s` });
        console.log(`[outsider] ${device} ${locale}: link opened to signed in ${seconds.toFixed(1)} s`);
        if (device === 'phone')
          expect(await r.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

        // The account made in the room is a normal one: this browser is logged in to it.
        await r.page.goto('/#/mobileHome');
        await expect(r.page.getByRole('heading', { name: t.welcome })).toBeVisible();

        // The launcher sees it signed, with its time, in the flow detail.
        await page.goto('/#/signList?tab=launched');
        await page.getByRole('button', { name: t.detail }).first().click();
        const outsiderRow = page.getByTestId('party-progress').filter({ hasText: t.outsider });
        await expect(outsiderRow).toContainText(t.progressSigned);

        // The launcher signs too (from the pending list); the signed PDF has both signatures valid.
        await page.keyboard.press('Escape');
        await page.goto('/#/signList');
        await page
          .getByRole('article', { name: 'contract' })
          .getByRole('button', { name: t.sign, exact: true })
          .click();
        await expect(page.getByTestId('sign-position')).toBeVisible({ timeout: 20_000 });
        await confirmWithCode(page, launcherPhone, t);
        await expect(page.getByTestId('flow-state')).toHaveText(t.completed, { timeout: 30_000 });
        const href = await page.getByRole('link', { name: t.downloadSigned }).getAttribute('href');
        const signed = await fetchPdf(page.request, href ?? '');
        expect(signed.byteRanges).toBeGreaterThanOrEqual(2);
        const verdicts = pdfsigValidity(signed.bytes);
        expect(verdicts.filter((v) => v === 'Signature is Valid.').length).toBeGreaterThanOrEqual(2);
        await r.context.close();
      });
    }

    test(`a confirmed name that differs from the launcher's is a clear stop (${locale})`, async ({
      browser,
      page,
    }) => {
      test.setTimeout(180_000);
      const outsiderPhone = newPhone();
      await launcherReady(page, t);
      await chooseSigners(page, t, outsiderPhone, t.outsider);
      await placeAndSend(page, t, t.outsider);

      const r = await recipientBrowser(browser, locale, 'phone');
      await enterRoom(r.page, outsiderPhone, t, 'phone');
      await startOnboarding(r.page, outsiderPhone, t, 'phone', t.outsider);
      const other = locale === 'zh-CN' ? '陈小' : 'Carla';
      await r.page.getByLabel(t.fullName).fill(other);
      await r.page.getByLabel(t.idNumber).fill(newIdNumber());
      await r.page.getByRole('button', { name: t.next }).click();
      const stop = r.page.getByRole('alert').filter({ hasText: t.mismatch });
      await expect(stop).toBeVisible();
      await expect(stop).toContainText(other);
      await expect(stop).toContainText(t.outsider);
      await expect(r.page).toHaveURL(/#\/h5\/v1\/nameAuthentication\?/);

      await page.goto('/#/signList?tab=launched');
      await page.getByRole('button', { name: t.detail }).first().click();
      const row = page.getByTestId('party-progress').filter({ hasText: t.outsider });
      await expect(row).toContainText(t.stopped);
      await expect(row).toContainText(other);
      await r.context.close();
    });

    test(`a company handler whose company has not opened e-signature opens it from the room, then seals (${locale})`, async ({
      browser,
      page,
    }) => {
      test.setTimeout(240_000);
      const handlerPhone = newPhone();
      const creditCode = newCreditCode();
      const companyName = `${locale === 'zh-CN' ? '未开通' : 'Unopened'}测试${creditCode.slice(-6)}有限公司`;
      const launcherPhone = await launcherReady(page, t);
      const card = page.getByTestId('party-card').first();
      await card.getByText(t.companyKind, { exact: true }).click();
      await card.getByText(t.otherCompany, { exact: true }).click();
      await card.getByLabel(t.companyNameLabel).fill(companyName);
      await card.getByLabel(t.operatorPhone).fill(handlerPhone);
      await card.getByLabel(t.operatorName).fill(t.handler);
      const readiness = card.getByTestId('signer-readiness');
      await expect(readiness).toContainText(t.companyNotOpen);
      await readiness.getByRole('checkbox', { name: t.invite }).check();
      await page.getByRole('button', { name: t.addMyself }).click();
      await page.getByRole('button', { name: t.next }).click();
      await placeAndSend(page, t, companyName);

      const r = await recipientBrowser(browser, locale, 'phone');
      const started = Date.now();
      await enterRoom(r.page, handlerPhone, t, 'phone');
      await startOnboarding(r.page, handlerPhone, t, 'phone', t.handler);
      await r.page.getByLabel(t.idNumber).fill(newIdNumber());
      await r.page.getByRole('button', { name: t.next }).click();
      await r.page.getByLabel(t.creditCode).fill(creditCode);
      await r.page.getByRole('button', { name: t.verifyCompany }).click();
      await r.page.getByLabel(t.amount).fill(await paidAmount(r.page.request, creditCode));
      await r.page.getByRole('button', { name: t.confirmCompany }).click();
      await expect(r.page).toHaveURL(/#\/h5\/v1\/signing_room\?/);
      await expect(r.page.getByTestId('sign-position')).toBeVisible({ timeout: 20_000 });
      // The contract seal issued on opening is there, chosen.
      await expect(r.page.getByRole('radio').first()).toBeChecked();
      await confirmWithCode(r.page, handlerPhone, t);
      const seconds = (Date.now() - started) / 1000;
      test
        .info()
        .annotations.push({ type: 'company: link to sealed', description: `${seconds.toFixed(1)} s` });
      console.log(`[outsider] company ${locale}: link opened to sealed in ${seconds.toFixed(1)} s`);

      await page.goto('/#/signList');
      await page
        .getByRole('article', { name: 'contract' })
        .getByRole('button', { name: t.sign, exact: true })
        .click();
      await expect(page.getByTestId('sign-position')).toBeVisible({ timeout: 20_000 });
      await confirmWithCode(page, launcherPhone, t);
      await expect(page.getByTestId('flow-state')).toHaveText(t.completed, { timeout: 30_000 });
      const href = await page.getByRole('link', { name: t.downloadSigned }).getAttribute('href');
      const signed = await fetchPdf(page.request, href ?? '');
      expect(
        pdfsigValidity(signed.bytes).filter((v) => v === 'Signature is Valid.').length,
      ).toBeGreaterThanOrEqual(2);
      await r.context.close();
    });
  });
}
