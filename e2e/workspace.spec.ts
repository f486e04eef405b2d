import { expect, type Page, test } from '@playwright/test';
import { openEsignViaApi } from './embedding-support.ts';
import { registerViaApi } from './person-support.ts';
import type { Locale } from './support.ts';

const texts = {
  'en-US': {
    done: 'Done',
    notDone: 'Not done',
    continue: 'Continue',
    quickLaunch: 'Quick launch',
    contracts: 'Contracts',
    contractList: 'Contract list',
    regularLaunch: 'Regular launch',
    close: 'Close',
    save: 'Save seal image',
    unsupported: 'Browser does not support this function',
    sign: 'Sign (demo)',
    demoDone: 'Demo complete',
  },
  'zh-CN': {
    done: '已完成',
    notDone: '未完成',
    continue: '继续',
    quickLaunch: '快速发起',
    contracts: '合同',
    contractList: '合同列表',
    regularLaunch: '常规发起',
    close: '关闭',
    save: '保存印章图片',
    unsupported: '浏览器不支持该功能',
    sign: '签署（演示）',
    demoDone: '演示完成',
  },
} as const;

const STEPS = ['esign', 'cert', 'seal', 'package', 'contract'];
const doneOf = (page: Page) =>
  Promise.all(STEPS.map((key) => page.getByTestId(`startup-step-${key}`).getAttribute('data-done')));

/** A fake mobile app: react-native-webview's postMessage, answering every message through EsignBridge. */
async function injectFakeApp(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    const received: unknown[] = [];
    w.__nativeReceived = received;
    w.ReactNativeWebView = {
      postMessage(json: string) {
        const message = JSON.parse(json) as { id: string; action: string };
        received.push(message);
        const data = message.action === 'hello' ? { platform: 'e2e', appVersion: '1.0.0' } : {};
        setTimeout(
          () => (w.EsignBridge as { receive(r: unknown): void }).receive({ id: message.id, ok: true, data }),
          10,
        );
      },
    };
  });
}
const nativeReceived = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { __nativeReceived: { action: string; data: unknown }[] }).__nativeReceived,
  );

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  const t = texts[locale];

  test.describe(`workspace (${locale})`, () => {
    test.use({ locale });

    test('getting started reflects the account: nothing done, then e-signature and certificate', async ({
      page,
    }) => {
      await registerViaApi(page);
      await page.goto('/#/manage/startup');
      await expect(page.getByTestId('startup-step-esign')).toContainText(t.notDone);
      expect(await doneOf(page)).toEqual(['false', 'false', 'false', 'false', 'false']);
      await expect(
        page.getByTestId('startup-step-esign').getByRole('link', { name: t.continue }),
      ).toHaveAttribute('href', '#/manage/personalEsign');

      await openEsignViaApi(page);
      await page.goto('/#/manage/startup');
      await expect(page.getByTestId('startup-step-esign')).toHaveAttribute('data-done', 'true');
      await expect(page.getByTestId('startup-step-esign')).toContainText(t.done);
      expect(await doneOf(page)).toEqual(['true', 'true', 'false', 'false', 'false']);
      // Continues at the seal, the first step not done; :next picks another.
      await expect(page.getByTestId('startup-step-seal')).toHaveAttribute('aria-current', 'step');
      await page.goto('/#/manage/startup/contract');
      await expect(page.getByTestId('startup-step-contract')).toHaveAttribute('aria-current', 'step');
    });

    test('the workspace home shows the figures of a fresh account and quick launch', async ({ page }) => {
      await registerViaApi(page);
      await page.goto('/#/manage/home');
      await expect(page.getByTestId('home-pending')).toHaveAttribute('data-value', '0');
      await expect(page.getByTestId('home-in-progress')).toHaveAttribute('data-value', '0');
      // The free allowance of the server (FREE_SIGNING_ALLOWANCE, 10 by default), counted up to.
      await expect(page.getByTestId('home-remaining')).toHaveAttribute('data-value', '10');
      await expect(page.getByTestId('home-remaining')).toContainText('10');
      await expect(page.getByRole('link', { name: t.quickLaunch })).toHaveAttribute(
        'href',
        '#/manage/home/quicklyFileUpload',
      );
    });
  });

  test.describe(`finding the launch (${locale})`, () => {
    test.use({ locale });

    test('the menu: Contracts opens the contract list and both launches; Regular launch opens its screen', async ({
      page,
    }) => {
      await registerViaApi(page);
      await page.goto('/#/manage/home');
      // From the home page too.
      await expect(page.getByRole('link', { name: t.regularLaunch })).toHaveAttribute(
        'href',
        '#/manage/home/fileUpload',
      );
      const menu = page.getByRole('navigation');
      await menu.getByText(t.contracts, { exact: true }).click();
      await expect(menu.getByRole('menuitem', { name: t.contractList })).toBeVisible();
      await expect(menu.getByRole('menuitem', { name: t.quickLaunch })).toBeVisible();
      await menu.getByRole('menuitem', { name: t.regularLaunch }).click();
      await expect(page).toHaveURL(/#\/manage\/home\/fileUpload$/);
      await expect(page.getByRole('heading', { name: t.regularLaunch })).toBeVisible();
      await expect(menu.getByRole('menuitem', { name: t.regularLaunch })).toHaveClass(/selected/);
    });
  });

  test.describe(`phone and the mobile-app bridge (${locale})`, () => {
    test.use({ locale, viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

    test('inside the app: /mobileHome closes the web view through the bridge', async ({ page }) => {
      await injectFakeApp(page);
      await registerViaApi(page);
      await page.goto('/#/mobileHome');
      await expect(page.getByTestId('home-remaining')).toHaveAttribute('data-value', '10');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await page.getByRole('button', { name: t.close }).click();
      await expect
        .poll(async () => (await nativeReceived(page)).map((m) => m.action))
        .toEqual(['hello', 'closeWebView']);
    });

    test('the demo: place the seal, sign (demo); save the seal image through the app, refused in a browser', async ({
      page,
      browser,
    }) => {
      await injectFakeApp(page);
      await page.goto('/#/pages/index');
      const firstPage = page.getByTestId('demo-page-1');
      await firstPage.click({ position: { x: 120, y: 200 } });
      await expect(page.getByTestId('demo-seal')).toBeVisible();
      await page.getByRole('button', { name: t.save }).click();
      await expect
        .poll(async () => (await nativeReceived(page)).find((m) => m.action === 'downloadImage')?.data)
        .toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/demo\/demo-seal\.svg$/) });
      await page.getByRole('button', { name: t.sign }).click();
      await expect(page.getByText(t.demoDone)).toBeVisible();

      // A plain browser: no native side, the catalogue's message.
      const plain = await browser.newPage({ locale, viewport: { width: 375, height: 812 } });
      await plain.goto('/#/pages/index');
      await plain.getByRole('button', { name: t.save }).click();
      await expect(plain.getByText(t.unsupported)).toBeVisible();
      await plain.close();
    });
  });
}

test.describe('public screens', () => {
  test.use({ locale: 'en-US' });

  test('/monitor shows database, storage, CA and TSA working, each with its time', async ({ page }) => {
    await page.goto('/#/monitor');
    for (const service of ['database', 'storage', 'ca', 'tsa']) {
      const row = page.getByTestId(`monitor-${service}`);
      await expect(row).toContainText('Working');
      await expect(row).toContainText(/\d+(\.\d)? ms/);
    }
    await expect(page.getByText('All services are working')).toBeVisible();
  });

  test('/ explains the product and leads to register, log in and verify', async ({ page }) => {
    await page.goto('/#/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '#/registerPage');
    await expect(page.getByRole('link', { name: 'Log in' }).first()).toHaveAttribute('href', '#/loginPage');
    await expect(page.getByRole('link', { name: 'Verify a document' })).toHaveAttribute(
      'href',
      '#/fileVerification',
    );
  });
});
