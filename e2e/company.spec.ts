import { expect, test } from '@playwright/test';
import type { Locale } from './support.ts';
import {
  api,
  companyTexts,
  invitationLink,
  letterPng,
  newCreditCode,
  openCompanyByApi,
  paidAmount,
  registerIn,
} from './company-support.ts';

const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  test.describe(`company accounts (${locale})`, () => {
    test.use({ locale });
    const t = companyTexts[locale];

    test('an agent opens a company with a power-of-attorney letter and the micro-payment amount', async ({
      page,
      context,
    }) => {
      test.setTimeout(120_000);
      await registerIn(context);
      await page.goto('/#/manage/enterpriseEsign');
      await expect(page.getByTestId('dev-provider')).toContainText(t.devProvider);
      const creditCode = newCreditCode();
      const name = `${locale === 'zh-CN' ? '杭州委托' : 'Agent Test'} ${creditCode.slice(-6)} Co`;
      await page.getByLabel(t.companyName, { exact: true }).fill(name);
      // The form checks the GB 32100 check character before anything is sent.
      const wrong = creditCode.slice(0, 17) + (creditCode[17] === '0' ? '1' : '0');
      await page.getByLabel(t.creditCode, { exact: true }).fill(wrong);
      await page.getByLabel(t.legalRepName, { exact: true }).click();
      await expect(page.getByText(t.ccCheck)).toBeVisible();
      await page.getByLabel(t.creditCode, { exact: true }).fill(creditCode.toLowerCase());
      await page.getByLabel(t.legalRepName, { exact: true }).fill('张三');
      await page.getByLabel(t.agent).check();
      await page.getByRole('button', { name: t.submit }).click();

      await expect(page.getByRole('button', { name: t.sendPayment })).toBeDisabled();
      await page
        .getByLabel(t.letterFile)
        .setInputFiles({ name: 'letter.png', mimeType: 'image/png', buffer: letterPng() });
      await expect(page.getByText(t.letterUploaded)).toBeVisible();
      // The letter is shown through the photo viewer: a thumbnail that loads the stored image.
      const thumb = page.getByTestId('letter-current').locator('img');
      await expect(thumb).toBeVisible();
      await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);

      await page.getByRole('button', { name: t.sendPayment }).click();
      const amount = await paidAmount(page.request, creditCode);
      await page.getByLabel(t.amount).fill(amount === '0.50' ? '0.51' : '0.50');
      await page.getByRole('button', { name: t.confirmAmount }).click();
      await expect(page.locator('.ant-message')).toContainText(t.wrongAmount);
      await page.getByLabel(t.amount).fill(amount);
      await page.getByRole('button', { name: t.confirmAmount }).click();
      await expect(page.getByText(t.success)).toBeVisible();
    });

    test("an operator joins, is approved, switches to the company and is refused an administrator's action", async ({
      browser,
    }) => {
      // Three people, a company with its certificate (RSA key generation): slow on a shared 2-core machine.
      test.setTimeout(150_000);
      const adminContext = await browser.newContext({ locale });
      await registerIn(adminContext);
      const companyName = `${locale === 'zh-CN' ? '测试加入企业' : 'Join Test'} ${Date.now().toString(36)}`;
      await openCompanyByApi(adminContext, companyName);

      const opContext = await browser.newContext({ locale, ...PHONE });
      const opPhone = await registerIn(opContext);
      const op = await opContext.newPage();
      await op.goto('/#/mobile/joinCompany');
      await op.getByLabel(t.searchKeyword).fill(companyName);
      await op.getByRole('button', { name: t.search }).click();
      await op.getByRole('button', { name: t.requestJoin }).click();
      await expect(op).toHaveURL(/#\/mobile\/joinCompany\/waiting/);
      await expect(op.getByTestId('join-request')).toContainText(companyName);
      await expect(op.getByTestId('join-request')).toContainText(t.waiting);

      const admin = await adminContext.newPage();
      await admin.goto('/#/manage/account/operator');
      const row = admin.getByRole('row', {
        name: new RegExp(`${opPhone.slice(0, 3)}\\*{4}${opPhone.slice(-4)}`),
      });
      await row.getByRole('button', { name: t.approve }).click();
      await expect(row).toContainText(t.active);

      await op.goto('/#/accountSwitch');
      await op.getByRole('button', { name: new RegExp(companyName) }).click();
      await expect(op.getByRole('listitem').filter({ hasText: companyName })).toContainText(t.current);

      // An administrator's action: adding an operator. The server answers HTTP 602.
      const other = await browser.newContext({ locale });
      const otherPhone = await registerIn(other);
      await op.goto('/#/manage/account/operator');
      await expect(op.locator('.ant-message')).toContainText(t.noPermission);
      await op.getByRole('button', { name: t.invite }).click();
      await op.getByLabel(t.phone).fill(otherPhone);
      const answer = op.waitForResponse((r) => r.url().includes('/addCompanyOperator'));
      await op.getByRole('button', { name: t.ok }).click();
      expect((await answer).status()).toBe(602);
      await expect(op.locator('.ant-message').last()).toContainText(t.noPermission);
      // The administrator may do it: an invitation, which the person has not answered.
      const invited = await api<{ status: string }>(adminContext, 'addCompanyOperator', {
        userType: 1,
        phone: otherPhone,
      });
      expect(invited.status).toBe('pending');
      await Promise.all([adminContext.close(), opContext.close(), other.close()]);
    });

    test('the administrator invites an operator; the invitee opens the SMS link on a phone and accepts', async ({
      browser,
    }) => {
      test.setTimeout(150_000);
      const adminContext = await browser.newContext({ locale });
      await registerIn(adminContext);
      const companyName = `${locale === 'zh-CN' ? '测试邀请企业' : 'Invite Test'} ${Date.now().toString(36)}`;
      await openCompanyByApi(adminContext, companyName);
      const opContext = await browser.newContext({ locale, ...PHONE });
      const opPhone = await registerIn(opContext);
      const masked = new RegExp(`${opPhone.slice(0, 3)}\\*{4}${opPhone.slice(-4)}`);

      const admin = await adminContext.newPage();
      await admin.goto('/#/manage/account/operator');
      await admin.getByRole('button', { name: t.invite }).click();
      await admin.getByRole('dialog').getByLabel(t.phone).fill(opPhone);
      await admin.getByRole('dialog').getByRole('button', { name: t.ok }).click();
      const invitations = admin.getByRole('table', { name: t.invitations });
      await expect(invitations.getByRole('row', { name: masked })).toContainText(t.invitationWaiting);
      // Not a member before answering: the member list has only the administrator.
      await expect(admin.getByRole('table').first().getByRole('row', { name: masked })).toHaveCount(0);

      // The invitee, on a phone, opens the link the SMS carries and accepts.
      const op = await opContext.newPage();
      await op.goto(`/#${await invitationLink(opContext.request, opPhone)}`);
      await expect(op.getByText(t.invitationScreen.replace('XX', companyName))).toBeVisible();
      await op.getByRole('button', { name: t.accept }).click();
      await expect(op.getByText(t.acceptedText.replace('XX', companyName))).toBeVisible();
      await op.getByRole('button', { name: t.actForCompany }).click();
      // The switch lands on the home page; only then to the account list (a goto before it would be overtaken).
      await expect(op).not.toHaveURL(/companyInvitation/);
      await op.goto('/#/accountSwitch');
      await expect(op.getByRole('listitem').filter({ hasText: companyName })).toContainText(t.current);

      await admin.reload();
      await expect(invitations.getByRole('row', { name: masked })).toContainText(t.invitationAccepted);
      await expect(admin.getByRole('table').first().getByRole('row', { name: masked })).toContainText(
        t.active,
      );
      await Promise.all([adminContext.close(), opContext.close()]);
    });
  });
}
