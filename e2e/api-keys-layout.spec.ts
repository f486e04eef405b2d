// The API keys table fits the screen (a newcomer on a 1366×768 laptop saw Created, Last used, Status and
// Revoke off-screen with no visible scrollbar), and stays usable on a phone.
import { expect, type Page, test } from '@playwright/test';
import { APP_ORIGIN } from './embedding-support.ts';
import { registerViaApi } from './person-support.ts';
import { call } from './signing-support.ts';

const ALL_SCOPES = ['flows:read', 'flows:write', 'templates:read', 'documents:read', 'webhooks:manage'];
const COLUMNS = ['Name', 'Key', 'Permissions', 'Created', 'Last used', 'Status', 'Actions'];

/** A person with two keys of every scope (one used once, one revoked), on the API keys screen. */
async function keysScreen(page: Page) {
  await registerViaApi(page);
  const used = await call<{ keyId: string; secret: string }>(page.request, 'createApiKey', {
    name: 'CRM production (Shanghai office)',
    scopes: ALL_SCOPES,
  });
  const res = await page.request.get(`${APP_ORIGIN}/open/v1/flows`, {
    headers: { authorization: `Bearer ${used.secret}` },
  });
  expect(res.status()).toBe(200);
  const revoked = await call<{ keyId: string }>(page.request, 'createApiKey', {
    name: 'Old ERP',
    scopes: ALL_SCOPES,
  });
  await call(page.request, 'revokeApiKey', { keyId: revoked.keyId });
  await page.goto('/#/manage/apiKeys');
  await expect(page.getByRole('cell', { name: 'CRM production (Shanghai office)' })).toBeVisible();
}

test.describe('API keys at 1366×768', () => {
  test.use({ locale: 'en-US', viewport: { width: 1366, height: 768 } });

  test('every column and the Revoke button are within view, without scrolling sideways', async ({ page }) => {
    await keysScreen(page);
    for (const name of COLUMNS)
      await expect(page.getByRole('columnheader', { name })).toBeInViewport({ ratio: 1 });
    const row = page.getByRole('row', { name: /CRM production/ });
    await expect(row.getByRole('button', { name: 'Revoke' })).toBeInViewport({ ratio: 1 });
    for (const cell of await row.getByRole('cell').all()) await expect(cell).toBeInViewport({ ratio: 1 });
    await expect(page.getByRole('row', { name: /Old ERP/ }).getByText(/^Revoked/)).toBeInViewport({
      ratio: 1,
    });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
  });
});

test.describe('API keys on a phone', () => {
  test.use({ locale: 'en-US', viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('the page does not overflow and a key can still be revoked', async ({ page }) => {
    await keysScreen(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const revoke = page.getByRole('row', { name: /CRM production/ }).getByRole('button', { name: 'Revoke' });
    await revoke.scrollIntoViewIfNeeded();
    await expect(revoke).toBeInViewport({ ratio: 1 });
    await revoke.click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByRole('row', { name: /CRM production/ }).getByText(/^Revoked/)).toBeVisible();
  });
});
