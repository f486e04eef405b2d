// The API keys screen (/manage/apiKeys): in the menu for a person and a company administrator only; an
// empty state; a key made with a name and permissions shows its secret once with a copy button; the list
// shows the last use; revoking asks first.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiKey } from '#contract/calls/apikey.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, loginInfoHandler, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';
import { formatTime } from '@/lib/format-time.ts';

const SECRET = 'esk_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const made: ApiKey = {
  keyId: '00000000-0000-4000-8000-0000000000k1',
  name: 'ERP',
  scopes: ['flows:read', 'flows:write'],
  prefix: 'esk_live_AbCd',
  createdByName: '张三',
  createdAt: '2026-11-28T10:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
  assertsIdentity: false,
};

/** The server's list of keys, which the handlers below change as the real calls would. */
let keys: ApiKey[];
let created: unknown[];
let revoked: unknown[];

freshClientEachTest({ token: 't1' });
beforeEach(() => {
  keys = [];
  created = [];
  revoked = [];
  server.use(
    http.post(`${CSIGN}/listApiKeys`, () => ok({ list: keys })),
    http.post(`${CSIGN}/createApiKey`, async ({ request }) => {
      created.push(await request.json());
      keys = [made];
      return ok({ ...made, secret: SECRET });
    }),
    http.post(`${CSIGN}/revokeApiKey`, async ({ request }) => {
      revoked.push(await request.json());
      keys = keys.map((k) => ({ ...k, revokedAt: '2026-11-28T11:00:00.000Z' }));
      return ok(keys[0]);
    }),
  );
});
afterEach(() => vi.restoreAllMocks());

describe('the API keys screen', () => {
  it('a person: empty state, create with permissions, the secret shown once and copied (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    loginInfoHandler(loginInfo());
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp('/manage/apiKeys');
    expect(await screen.findByText(/No API key yet/, {}, { timeout: 15000 })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'API keys' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'New key' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'ERP');
    await userEvent.click(within(dialog).getByLabelText('Read templates'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]).toMatchObject({
      name: 'ERP',
      scopes: ['flows:read', 'flows:write', 'templates:read'],
    });
    const shown = (await screen.findByLabelText('Key')) as HTMLInputElement;
    expect(shown.value).toBe(SECRET);
    expect(screen.getByText(/shown only once/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    await userEvent.click(screen.getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.queryByDisplayValue(SECRET)).toBeNull());

    // The list shows the key by its prefix only, never used yet.
    expect(await screen.findByText('esk_live_AbCd…')).toBeTruthy();
    expect(screen.getByText('Never')).toBeTruthy();
    expect(screen.queryByText(SECRET)).toBeNull();
  }, 30_000);

  it('a name and a permission are required before any call (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    loginInfoHandler(loginInfo());
    renderApp('/manage/apiKeys');
    await userEvent.click(await screen.findByRole('button', { name: '新建密钥' }, { timeout: 8000 }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '创建' }));
    expect(await within(dialog).findByText('请输入名称')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('名称'), 'ERP');
    await userEvent.click(within(dialog).getByLabelText('查看合同'));
    await userEvent.click(within(dialog).getByLabelText('发起、撤销和催签合同'));
    await userEvent.click(within(dialog).getByRole('button', { name: '创建' }));
    expect(await within(dialog).findByText('请至少选择一项权限')).toBeTruthy();
    expect(created).toHaveLength(0);
  }, 30_000);

  it('revoking asks first, then the key shows as revoked; last use is shown', async () => {
    useI18nStore.getState().setLocale('en-US');
    loginInfoHandler(loginInfo({ userType: 1, companyId: 'c1', companyName: '云签科技', isAdmin: true }));
    keys = [{ ...made, lastUsedAt: '2026-11-28T10:30:00.000Z', assertsIdentity: true }];
    renderApp('/manage/apiKeys');
    expect(await screen.findByText('ERP', {}, { timeout: 15000 })).toBeTruthy();
    expect(screen.queryByText('Never')).toBeNull();
    // A key the platform trusts to assert identities says so while it is live.
    expect(screen.getByText('Trusted for identities')).toBeTruthy();
    // Shown like every other time of the app (src/lib/format-time.ts), not in the browser's default format.
    expect(screen.getByText(formatTime('2026-11-28T10:30:00.000Z', 'en-US'))).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText(/Programs using it stop working/)).toBeTruthy();
    expect(revoked).toHaveLength(0);
    const confirm = screen.getAllByRole('button', { name: 'Revoke' }).at(-1)!;
    await userEvent.click(confirm);
    await waitFor(() => expect(revoked).toEqual([{ userType: 1, keyId: made.keyId }]));
    expect(await screen.findByText(/^Revoked /)).toBeTruthy();
  }, 30_000);

  it('a company operator has no API keys entry in the menu', async () => {
    useI18nStore.getState().setLocale('en-US');
    loginInfoHandler(loginInfo({ userType: 1, companyId: 'c1', companyName: '云签科技', isAdmin: false }));
    server.use(
      http.post(`${CSIGN}/listLaunchedFlows`, () => ok({ list: [], total: 0, pageNum: 1, pageSize: 5 })),
    );
    renderApp('/manage/apiKeys');
    await screen.findByRole('menuitem', { name: 'Signing settings' }, { timeout: 8000 });
    expect(screen.queryByRole('menuitem', { name: 'API keys' })).toBeNull();
  }, 30_000);
});
