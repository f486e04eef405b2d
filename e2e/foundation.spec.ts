import { expect, test } from '@playwright/test';
import { fillPath, paths } from '../src/config/paths.ts';
import { type Locale, latestSmsCode, newPhone, ROUTE_SAMPLES, texts } from './support.ts';

for (const locale of ['zh-CN', 'en-US'] as Locale[]) {
  test.describe(`foundation journeys (${locale})`, () => {
    test.use({ locale });
    const t = texts[locale];

    test('a new user registers, reaches the workspace, logs out and logs in again', async ({
      page,
      request,
    }) => {
      const phone = newPhone();
      const password = 'Secret12345';
      await page.goto('/#/registerPage');
      await page.getByLabel(t.phone, { exact: true }).fill(phone);
      await page.getByRole('button', { name: t.getCode }).click();
      const code = await latestSmsCode(request, phone);
      await page.getByLabel(t.smsCode, { exact: true }).fill(code);
      await page.getByLabel(t.password, { exact: true }).fill(password);
      await page.getByLabel(t.confirmPassword, { exact: true }).fill(password);
      await page.getByRole('button', { name: t.register, exact: true }).click();

      await expect(page).toHaveURL(/#\/manage/);
      // The workspace shows who is logged in, masked: first 3 and last 4 digits.
      const masked = `${phone.slice(0, 3)}****${phone.slice(7)}`;
      await expect(page.getByText(masked).first()).toBeVisible();

      await page.getByText(masked).first().click();
      await page.getByText(t.logOut, { exact: true }).click();
      await expect(page).toHaveURL(/#\/loginPage/);
      expect((await page.context().cookies()).find((c) => c.name === 'token')).toBeUndefined();

      await page.getByLabel(t.phone, { exact: true }).fill(phone);
      await page.getByLabel(t.password, { exact: true }).fill(password);
      await page.getByRole('button', { name: t.logIn, exact: true }).click();
      await expect(page).toHaveURL(/#\/manage/);
      await expect(page.getByText(masked).first()).toBeVisible();
    });

    test('a protected route without login lands on the login page with next and nextType=route', async ({
      page,
    }) => {
      await page.goto('/#/manage/home');
      await expect(page).toHaveURL(/#\/loginPage\?/);
      const query = new URLSearchParams(page.url().split('?')[1]);
      expect(query.get('next')).toBe('/manage/home');
      expect(query.get('nextType')).toBe('route');
      await expect(page.getByRole('button', { name: t.logIn, exact: true })).toBeVisible();
    });

    test('a wrong password is refused with a clear message and no login', async ({ page }) => {
      await page.goto('/#/loginPage');
      await page.getByLabel(t.phone, { exact: true }).fill(newPhone());
      await page.getByLabel(t.password, { exact: true }).fill('Wrong12345');
      await page.getByRole('button', { name: t.logIn, exact: true }).click();
      await expect(page.locator('.ant-message')).toContainText(
        locale === 'zh-CN' ? /错误|不正确/ : /wrong|incorrect/i,
      );
      await expect(page).toHaveURL(/#\/loginPage/);
    });
  });
}

test('every route of the spec resolves to its screen, unknown routes to the not-found page', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  // Logged in, so that protected routes show their screen rather than the login page.
  const phone = newPhone();
  await request.post('/v1/account/api/csign/sendSmsCode', {
    data: { userType: 0, phone, purpose: 'register' },
  });
  const smsCode = await latestSmsCode(request, phone);
  const res = await page.request.post('/v1/account/api/csign/userRegister', {
    data: { userType: 0, phone, password: 'Secret12345', smsCode },
  });
  expect((await res.json()).code).toBe(0);

  await page.goto('/#/this/route/does/not/exist');
  await expect(page.locator('[data-not-found]')).toBeVisible();

  const redirects: Record<string, string> = {
    '/h5': '/h5/v1/signing_room',
    '/h5/v1': '/h5/v1/signing_room',
    '/pc': '/pc/v1/signing_room',
    '/pc/v1': '/pc/v1/signing_room',
    '/manage': '/manage/startup',
    '/manage/account': '/manage/account/accountInfo',
    // The transition page only routes: a desktop goes on to the PC room at once.
    '/signingRoomTransition': '/pc/v1/signing_room',
    // Later steps of opening an account send a user without a real name back to the first step.
    '/mobile/openAccount/verify': '/mobile/openAccount/basic',
    '/mobile/openAccount/finish': '/mobile/openAccount/basic',
  };
  // Each screen settles (its calls answered) before the next route: a screen that redirects on a late answer
  // is then judged on its own route, not on the next one's.
  let inFlight = 0;
  page.on('request', () => {
    inFlight += 1;
  });
  const done = () => {
    inFlight -= 1;
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  for (const pattern of new Set(Object.values(paths))) {
    // Best effort, at most 5 s: a screen that keeps a call open must not fail this journey.
    await expect
      .poll(() => inFlight, { timeout: 5_000 })
      .toBeLessThanOrEqual(0)
      .catch(() => {});
    await page.waitForTimeout(100); // the effect that reacts to the last answer
    const path = fillPath(pattern, ROUTE_SAMPLES);
    await page.evaluate((hash) => {
      window.location.hash = hash;
    }, `#${path}`);
    const expected = redirects[path] ?? path;
    await expect(page, `route ${pattern}`).toHaveURL(
      new RegExp(`#${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\?|$)`),
    );
    await expect(page.locator('[data-not-found]'), `route ${pattern}`).toHaveCount(0);
    await expect(page.locator('#root'), `route ${pattern}`).not.toBeEmpty();
  }
});
