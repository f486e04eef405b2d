import { expect, test } from '@playwright/test';
import { certChangeCode, certTexts, openedPerson } from './cert-support.ts';
import type { Locale } from './support.ts';

// The server lets a new SMS code go out to the same phone for the same purpose only after the resend
// interval (60 s in production; playwright.config.ts shortens it for the e2e server).
const RESEND_WAIT_MS = (Number(process.env.E2E_SMS_RESEND_SECONDS ?? 60) + 1) * 1000;

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  const t = certTexts[locale];
  // One language on a 375 px phone, the other on a PC: the screen must work on both.
  const device =
    locale === 'zh-CN' ? { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true } : {};

  test.describe(`person changes their certificate (${locale})`, () => {
    test.use({ locale, ...device });

    test('renews, then revokes and reissues for key compromise; the history shows the revoked ones', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const { phone, serial: first } = await openedPerson(page, t.personName);
      await page.goto('/#/manage/certChange');
      await expect(page.getByRole('heading', { name: t.title, level: 1 })).toBeVisible();
      const current = page.getByTestId('current-cert');
      await expect(current).toContainText(first);
      await expect(current.getByTestId('cert-subject')).toContainText(t.personName);
      await expect(current).not.toContainText('2.5.4.5'); // readable names (issue 11 edge 3)

      // Renew: the dialog states the consequence, the SMS code confirms it.
      await page.getByRole('button', { name: t.renew }).click();
      const renewDialog = page.getByRole('dialog');
      await expect(renewDialog).toContainText(new RegExp(t.keepValid, 'i'));
      await renewDialog.getByRole('button', { name: t.confirmRenew, exact: true }).click();
      await expect(renewDialog.getByRole('alert')).toBeVisible(); // no code entered yet
      await renewDialog.getByRole('button', { name: t.getCode }).click();
      const firstSentAt = Date.now();
      const code1 = await certChangeCode(page.request, phone, []);
      await renewDialog.getByLabel(t.smsCode, { exact: true }).fill(code1);
      await renewDialog.getByRole('button', { name: t.confirmRenew, exact: true }).click();
      const success = page.getByTestId('cert-change-success');
      await expect(success).toContainText(t.renewed);
      const second = /([0-9a-f]{16,})/.exec((await success.textContent()) ?? '')?.[1] ?? '';
      expect(second).not.toBe('');
      await expect(current).toContainText(second);
      const history = page.getByTestId('cert-history');
      await expect(history.getByTestId('cert-history-item')).toHaveCount(1);
      await expect(history).toContainText(first);
      await expect(history).toContainText(t.superseded);

      // Revoke and reissue: "name changed" is refused while the verified name is the same.
      await page.getByRole('button', { name: t.reissue, exact: true }).click();
      const reissueDialog = page.getByRole('dialog');
      await reissueDialog.getByRole('radio', { name: t.nameChanged }).check();
      await expect(reissueDialog.getByTestId('name-unchanged')).toContainText(t.nameUnchanged);
      await expect(reissueDialog.getByRole('button', { name: t.confirmReissue, exact: true })).toBeDisabled();
      await reissueDialog.getByRole('radio', { name: t.keyCompromise }).check();
      await expect(reissueDialog.getByTestId('reason-hint')).toContainText(t.cannotVouch);
      await expect(reissueDialog).toContainText(new RegExp(t.keepValid, 'i'));

      await page.waitForTimeout(Math.max(0, firstSentAt + RESEND_WAIT_MS - Date.now()));
      await reissueDialog.getByRole('button', { name: t.getCode }).click();
      const code2 = await certChangeCode(page.request, phone, [code1]);
      await reissueDialog.getByLabel(t.smsCode, { exact: true }).fill(code2);
      await reissueDialog.getByRole('button', { name: t.confirmReissue, exact: true }).click();
      await expect(success).toContainText(t.reissued);

      await expect(current).not.toContainText(second);
      await expect(current.getByTestId('cert-subject')).toContainText(t.personName);
      await expect(current).not.toContainText('2.5.4.5'); // readable names (issue 11 edge 3)
      const items = history.getByTestId('cert-history-item');
      await expect(items).toHaveCount(2);
      for (const serial of [first, second]) {
        const item = items.filter({ hasText: serial });
        await expect(item).toContainText(t.revoked);
        await expect(item).toContainText(t.keyCompromise);
      }

      // Nothing wider than the screen.
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
    });
  });
}
