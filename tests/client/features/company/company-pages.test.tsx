import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CompanyApply } from '#contract/calls/company.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, fail, loginInfo, ok, server } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

const apply = (over: Partial<CompanyApply> = {}): CompanyApply => ({
  companyId: '00000000-0000-4000-8000-00000000000c',
  companyName: '杭州测试科技有限公司',
  creditCode: '91440300708461136T',
  legalRepName: '张三',
  applicantRole: 'legal_rep',
  status: 'pending',
  hasPowerOfAttorney: false,
  powerOfAttorneyType: null,
  isPaymentSent: false,
  attemptsLeft: 0,
  provider: 'development',
  verifiedAt: null,
  ...over,
});

const { errors } = freshClientEachTest({ token: 't1', loginInfo: loginInfo() });

describe('company opening form', () => {
  it('checks the credit code with the shared GB 32100 rule, in the chosen language, before sending', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    const sent: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/getCompanyApply`, () => ok(null)),
      http.post(`${CSIGN}/applyCompanyEsign`, async ({ request }) => {
        sent.push(await request.json());
        return ok(apply());
      }),
    );
    renderApp('/foundCompany');
    const user = userEvent.setup();
    await user.type(
      await screen.findByLabelText('企业名称', {}, { timeout: 10_000 }),
      '杭州测试科技有限公司',
    );
    await user.type(screen.getByLabelText('统一社会信用代码'), '91440300708461136A');
    await user.type(screen.getByLabelText('法定代表人', { selector: 'input[type=text]' }), '张三');
    await user.click(screen.getByRole('button', { name: /提\s*交/ }));
    expect(await screen.findByText('统一社会信用代码无效（校验位不符）')).toBeTruthy();
    expect(sent).toEqual([]);

    const field = screen.getByLabelText('统一社会信用代码');
    await user.clear(field);
    await user.type(field, '91440300708461136t');
    await user.click(screen.getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      creditCode: '91440300708461136T',
      applicantRole: 'legal_rep',
      userType: 0,
    });
    // The development provider is labelled as such.
    expect(await screen.findByText(/开发环境认证服务/)).toBeTruthy();
  }, 30_000);

  it('shows the attempts left after a wrong amount, as the server counts them', async () => {
    useI18nStore.getState().setLocale('en-US');
    let current = apply({ isPaymentSent: true, attemptsLeft: 3 });
    server.use(
      http.post(`${CSIGN}/getCompanyApply`, () => ok(current)),
      http.post(`${CSIGN}/confirmCompanyMicroPayment`, () => {
        current = apply({ isPaymentSent: true, attemptsLeft: 2 });
        return fail(1100, 'the amount does not match; 2 attempts left');
      }),
    );
    renderApp('/manage/enterpriseEsign');
    const user = userEvent.setup();
    expect(await screen.findByText('Payment sent: 3 attempts left', {}, { timeout: 10_000 })).toBeTruthy();
    await user.type(screen.getByLabelText('Amount received (CNY)'), '0.12');
    await user.click(screen.getByRole('button', { name: 'Confirm the amount' }));
    expect(await screen.findByText('Payment sent: 2 attempts left')).toBeTruthy();
    expect(errors).toContain('the amount does not match; 2 attempts left');
  }, 30_000);
});
