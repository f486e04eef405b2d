// The webhook screen (/manage/webhooks) against msw: the empty state, creating an endpoint with chosen
// events (the secret shown once, copyable), the delivery log with a redelivery, deleting after a
// confirmation; in both languages.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { WebhookDelivery, WebhookEndpoint } from '#contract/calls/webhook.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

const ID = '00000000-0000-4000-8000-0000000000e1';
const SECRET = 'whsec_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

const endpoint = (over: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  endpointId: ID,
  url: 'https://partner.example/hooks',
  description: 'ERP',
  events: ['flow.completed', 'party.signed'],
  enabled: true,
  createdAt: '2026-11-28T08:00:00.000Z',
  lastAttempt: null,
  ...over,
});

const delivery = (over: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  deliveryId: '00000000-0000-4000-8000-0000000000d1',
  eventId: '00000000-0000-4000-8000-0000000000f1',
  type: 'flow.completed',
  createdAt: '2026-11-28T09:00:00.000Z',
  state: 'pending',
  nextAttemptAt: '2026-11-28T09:01:00.000Z',
  attempts: [
    {
      at: '2026-11-28T09:00:00.000Z',
      ok: false,
      responseCode: 500,
      durationMs: 12,
      error: 'HTTP 500',
      manual: false,
    },
  ],
  ...over,
});

const { successes } = freshClientEachTest({ platform: 'ZHDB', token: 't1', loginInfo: loginInfo() });

describe('/manage/webhooks', () => {
  it('creates an endpoint with the chosen events and shows its secret once (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    let list: WebhookEndpoint[] = [];
    const created: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/listWebhookEndpoints`, () => ok(list)),
      http.post(`${CSIGN}/createWebhookEndpoint`, async ({ request }) => {
        const body = (await request.json()) as { url: string; events: string[]; description?: string };
        created.push(body);
        list = [endpoint({ url: body.url, events: body.events as WebhookEndpoint['events'] })];
        return ok({ ...list[0], secret: SECRET });
      }),
    );
    renderApp('/manage/webhooks');
    expect(await screen.findByTestId('webhooks-empty', {}, { timeout: 30000 })).toHaveProperty(
      'textContent',
      'No webhook endpoint yet',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog');
    const create = within(dialog).getByRole('button', { name: 'Create' });
    await userEvent.type(within(dialog).getByLabelText('Endpoint URL'), 'not a url');
    expect(within(dialog).getByText('Enter an http(s) URL')).toBeTruthy();
    expect(create).toHaveProperty('disabled', true);
    await userEvent.clear(within(dialog).getByLabelText('Endpoint URL'));
    await userEvent.type(within(dialog).getByLabelText('Endpoint URL'), 'https://partner.example/hooks');
    // Every event is chosen at first: keep only two.
    for (const name of [
      'Contract launched',
      'Signer opened the contract',
      'Signer refused',
      'Contract expired',
      'Contract cancelled',
      'Seal approval requested',
      'Seal approval decided',
      'Bulk send finished',
      'New comment',
      'Signer handed over',
      'Deadline changed',
      'Contract voided by agreement',
      'Document revised',
      'Contract term ending',
    ])
      await userEvent.click(within(dialog).getByRole('checkbox', { name }));
    await userEvent.click(create);
    await waitFor(() =>
      expect(created).toEqual([
        expect.objectContaining({
          url: 'https://partner.example/hooks',
          events: ['party.signed', 'flow.completed'],
          userType: 0,
        }),
      ]),
    );
    expect((await screen.findByTestId('webhook-secret')).textContent).toBe(SECRET);
    expect(screen.getByText(/not shown again/)).toBeTruthy();
    await userEvent.click(screen.getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByTestId('webhook-secret')).toBeNull());
    const card = await screen.findByTestId('webhook-endpoint');
    expect(within(card).getByText('Signer signed')).toBeTruthy();
    expect(within(card).getByText('Contract completed')).toBeTruthy();
    expect(card.textContent).not.toContain(SECRET);
  }, 60_000);

  it('shows the delivery log, redelivers, and deletes after confirming (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    let list = [endpoint({ lastAttempt: { at: '2026-11-28T09:00:00.000Z', ok: false, responseCode: 500 } })];
    const redelivered: unknown[] = [];
    const deleted: unknown[] = [];
    let log = [delivery()];
    server.use(
      http.post(`${CSIGN}/listWebhookEndpoints`, () => ok(list)),
      http.post(`${CSIGN}/listWebhookDeliveries`, () =>
        ok({ list: log, total: log.length, pageNum: 1, pageSize: 50 }),
      ),
      http.post(`${CSIGN}/redeliverWebhook`, async ({ request }) => {
        redelivered.push(await request.json());
        const base = delivery();
        log = [
          delivery({
            state: 'delivered',
            nextAttemptAt: null,
            attempts: [
              ...base.attempts,
              { ...base.attempts[0], ok: true, responseCode: 200, error: null, manual: true },
            ],
          }),
        ];
        return ok(log[0]);
      }),
      http.post(`${CSIGN}/deleteWebhookEndpoint`, async ({ request }) => {
        deleted.push(await request.json());
        list = [];
        return ok(null);
      }),
    );
    renderApp('/manage/webhooks');
    const card = await screen.findByTestId('webhook-endpoint', {}, { timeout: 30000 });
    expect(within(card).getByText(/失败 \(500\)/)).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: '投递记录' }));
    const table = await within(card).findByRole('table');
    const row = (await within(table).findByText('合同已完成')).closest('tr')!;
    expect(within(row).getByText('重试中')).toBeTruthy();
    expect(within(row).getByText('500')).toBeTruthy();
    await userEvent.click(within(row).getByRole('button', { name: '重新投递' }));
    await waitFor(() =>
      expect(redelivered).toEqual([expect.objectContaining({ deliveryId: delivery().deliveryId })]),
    );
    await waitFor(() => expect(within(card).getByText('已送达')).toBeTruthy());
    expect(successes).toContain('已重新投递：成功 (200)');

    await userEvent.click(within(card).getByRole('button', { name: '删除' }));
    const confirm = await screen.findByRole('tooltip');
    expect(confirm.textContent).toContain('https://partner.example/hooks');
    expect(deleted).toEqual([]);
    await userEvent.click(within(confirm).getByRole('button', { name: '删除' }));
    await waitFor(() => expect(deleted).toEqual([expect.objectContaining({ endpointId: ID })]));
    expect(await screen.findByTestId('webhooks-empty')).toHaveProperty('textContent', '暂无回调地址');
  }, 60_000);
});

describe('/manage/webhooks help', () => {
  const cases = [
    ['en-US', 'How your server checks a request', 'API reference'],
    ['zh-CN', '您的服务器如何校验请求', '接口文档'],
  ] as const;
  it.each(cases)(
    'explains the signature and links the API reference, not the README (%s)',
    async (locale, summary, link) => {
      useI18nStore.getState().setLocale(locale);
      server.use(http.post(`${CSIGN}/listWebhookEndpoints`, () => ok([])));
      renderApp('/manage/webhooks');
      await screen.findByTestId('webhooks-empty', {}, { timeout: 30000 });
      expect(document.body.textContent).not.toMatch(/README/);
      await userEvent.click(screen.getByText(summary));
      const help = screen.getByText(summary).closest('details')!;
      expect(help.open).toBe(true);
      for (const part of ['X-Esign-Timestamp', 'X-Esign-Signature', 'v1=', 'HMAC-SHA256', 'X-Esign-Event-Id'])
        expect(help.textContent).toContain(part);
      expect(within(help).getByRole('link', { name: link }).getAttribute('href')).toBe('/v1/docs');
    },
  );
});
