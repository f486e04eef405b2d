import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

freshClientEachTest({ platform: 'ZHDB', token: 't1', loginInfo: loginInfo() });

describe('notice e-mail on /personalDetails', () => {
  it('shows the address, refuses a malformed one and saves address, language and platform (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    const saved: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/getPersonalDetails`, () =>
        ok({
          name: '张三',
          idNumberMasked: '110101********0011',
          phoneMasked: '139****0000',
          verifiedAt: '2026-11-01T08:00:00.000Z',
          faceVerifiedAt: null,
          agreementVersion: null,
          agreementAcceptedAt: null,
          certificate: null,
        }),
      ),
      http.post(`${CSIGN}/getPersonCaCert`, () => ok(null)),
      http.post(`${CSIGN}/getSigningPassword`, () =>
        ok({ isSet: false, updatedAt: null, lockedUntil: null }),
      ),
      http.post(`${CSIGN}/getNoticeEmail`, () => ok({ email: null, lang: 'zh', isMailConfigured: false })),
      http.post(`${CSIGN}/setNoticeEmail`, async ({ request }) => {
        const body = (await request.json()) as { email: string; lang: 'zh' | 'en' };
        saved.push(body);
        return ok({ email: body.email || null, lang: body.lang, isMailConfigured: false });
      }),
    );
    renderApp('/personalDetails');
    const card = await screen.findByTestId('notice-email', {}, { timeout: 15000 });
    expect(within(card).getByText(/does not send e-mail at the moment/)).toBeTruthy();
    const input = within(card).getByLabelText('E-mail address');
    await userEvent.type(input, 'zhang@');
    expect(within(card).getByText('Enter a valid e-mail address')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
    await userEvent.type(input, 'example.com');
    await userEvent.click(within(card).getByRole('combobox', { name: 'Language of the e-mails' }));
    await userEvent.click(await screen.findByTitle('English'));
    await userEvent.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(saved).toEqual([{ email: 'zhang@example.com', lang: 'en', fromPtCode: 'ZHDB', userType: 0 }]),
    );
  }, 40_000);
});

describe('message delivery card on /manage/admin/packages', () => {
  it('lists failed deliveries with their reason (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    server.use(
      http.post(`${CSIGN}/getPlatformAdminInfo`, () => ok({ isPlatformAdmin: true })),
      http.post(`${CSIGN}/adminGetPackageList`, () => ok([])),
      http.post(`${CSIGN}/adminGetOrderList`, () => ok({ list: [], total: 0, pageNum: 1, pageSize: 10 })),
      http.post(`${CSIGN}/adminGetMessageFailures`, () =>
        ok({
          smsProvider: 'aliyun',
          isMailConfigured: true,
          failures: [
            {
              id: 7,
              channel: 'sms',
              provider: 'aliyun',
              to: '139****0000',
              purpose: 'login',
              failureKind: 'config',
              attempts: 1,
              errorCode: 'isv.SMS_TEMPLATE_ILLEGAL',
              errorMessage: '模板不合法',
              requestId: 'R1',
              createdAt: '2026-11-25T08:00:00.000Z',
            },
          ],
        }),
      ),
    );
    renderApp('/manage/admin/packages');
    const card = await screen.findByTestId('message-failures', {}, { timeout: 15000 });
    expect(within(card).getByText('短信：aliyun · 邮件：已开通')).toBeTruthy();
    expect(within(card).getByText('139****0000')).toBeTruthy();
    expect(within(card).getByText('配置问题（模板、签名、密钥、余额）')).toBeTruthy();
    expect(within(card).getByText('isv.SMS_TEMPLATE_ILLEGAL: 模板不合法')).toBeTruthy();
  }, 40_000);
});
