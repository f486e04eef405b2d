import { expect, test } from '@playwright/test';
import { partnerLink, partnerTexts, partnerToken } from './partner-support.ts';
import { type Locale, newPhone } from './support.ts';

const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(7)}`;

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  test.describe(`partner login (${locale})`, () => {
    test.use({ locale });
    const t = partnerTexts[locale];

    test('a ZHDB partner token logs the user in; the workspace shows the ZHDB layout', async ({ page }) => {
      const phone = newPhone();
      await page.goto(partnerLink('ZHDB', partnerToken('ZHDB', phone, '张三')));

      await expect(page).toHaveURL(/#\/manage/);
      // The token is used up and gone from the address bar.
      expect(page.url()).not.toContain('jsToken');
      const header = page.getByRole('banner');
      await expect(header).toBeVisible();
      await expect(header.getByText(masked(phone))).toBeVisible();
      // ZHDB (SPEC §3): header, left menu and footer on; no logo; empty home URL, so the name is no link.
      await expect(header.getByText(t.zhdbName)).toBeVisible();
      await expect(page.getByTestId('platform-logo')).toHaveCount(0);
      await expect(header.getByRole('link', { name: t.zhdbName })).toHaveCount(0);
      await expect(page.getByRole('navigation').getByText(t.menuItem)).toBeVisible();
      await expect(page.getByRole('contentinfo')).toHaveText(t.footer);

      // The session is a real one: after a reload the user is still logged in.
      await page.reload();
      await expect(page.getByRole('banner').getByText(masked(phone))).toBeVisible();
    });

    test('a ZYPT partner token logs the user in; header, left menu and footer are hidden', async ({
      page,
    }) => {
      const phone = newPhone();
      await page.goto(partnerLink('ZYPT', partnerToken('ZYPT', phone)));

      await expect(page).toHaveURL(/#\/manage\//);
      expect(page.url()).not.toContain('jsToken');
      await expect(page.getByRole('main').first()).toBeVisible();
      await expect(page.getByRole('banner')).toHaveCount(0);
      await expect(page.getByRole('navigation')).toHaveCount(0);
      await expect(page.getByRole('contentinfo')).toHaveCount(0);
      await expect(page.getByText(t.footer)).toHaveCount(0);
      const info = await page.request.post('/v1/jinshang/login/api/csign/getLoginInfoFromJinshang', {
        data: { userType: 0 },
        headers: await xsrfHeaders(page),
      });
      expect((await info.json()).data).toMatchObject({ fromPtCode: 'ZYPT' });
    });

    test('opening the same partner link twice: the second time is refused with a message', async ({
      page,
      browser,
    }) => {
      const link = partnerLink('ZHDB', partnerToken('ZHDB', newPhone()));
      await page.goto(link);
      await expect(page).toHaveURL(/#\/manage/);

      const other = await browser.newPage({ locale });
      await other.goto(link);
      await expect(other.locator('.ant-message')).toContainText(t.replayed);
      await expect(other).toHaveURL(/#\/loginPage/);
      expect(other.url()).not.toContain('jsToken');
      await other.close();
    });
  });
}

/** The XSRF headers the app sends (token cookie and its keySuffix), for API calls made beside the page. */
async function xsrfHeaders(page: import('@playwright/test').Page): Promise<Record<string, string>> {
  const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value ?? '';
  const { keySuffixOf } = await import('../contract/transport.ts');
  return { 'x-xsrf-token': token, keysuffix: keySuffixOf(token) };
}
