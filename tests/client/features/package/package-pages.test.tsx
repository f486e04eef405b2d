import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PackageInfo, PackageOrder } from '#contract/calls/package.ts';
import { calculatorTotalFen } from '@/features/package/cost-calculator.tsx';
import { fenOf } from '@/features/package/parts.tsx';
import { unitPriceFor } from '@/features/package/pricing.ts';
import { usageRequest } from '@/features/package/usage-model.ts';
import { useI18nStore } from '@/i18n/i18n-store.ts';
import { CSIGN, loginInfo, loginInfoHandler, ok, server, setToken } from '../../fixtures/msw.ts';
import { renderApp } from '../../fixtures/render-app.tsx';
import { freshClientEachTest } from '../../fixtures/state.ts';

const pkg = (over: Partial<PackageInfo> = {}): PackageInfo => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: '基础套餐',
  nameEn: 'Basic',
  description: '',
  descriptionEn: '',
  saleProductType: '10',
  signings: 5,
  priceFen: 9950,
  validityDays: 365,
  tiers: [],
  isActive: true,
  ...over,
});

freshClientEachTest();
beforeEach(() => {
  server.use(
    http.post(`${CSIGN}/getPackageList`, () => ok([pkg()])),
    http.post(`${CSIGN}/getPlatformAdminInfo`, () => ok({ isPlatformAdmin: false })),
    http.post(`${CSIGN}/updateLoginUserInfoCache`, () => ok(loginInfo({ userType: 1, companyId: 'c1' }))),
  );
});

describe('money and filters', () => {
  it('CNY text to fen without float drift; totals in fen; tier prices as the server applies them', () => {
    expect(fenOf('0.1')).toBe(10);
    expect(fenOf('19.99')).toBe(1999);
    expect(fenOf('1.005')).toBe(100);
    expect(calculatorTotalFen('3', '19.99')).toBe(5997);
    expect(calculatorTotalFen('', '19.99')).toBe(0);
    const tiers = [
      { minCopies: 10, priceFen: 400 },
      { minCopies: 5, priceFen: 450 },
    ];
    expect(unitPriceFor({ priceFen: 500, tiers }, 4)).toBe(500);
    expect(unitPriceFor({ priceFen: 500, tiers }, 5)).toBe(450);
    expect(unitPriceFor({ priceFen: 500, tiers }, 12)).toBe(400);
  });

  it('a usage filter leaves empty fields out and includes the whole last day', () => {
    expect(usageRequest({ keyword: ' ', state: '', packageId: '', dateFrom: '', dateTo: '' })).toEqual({});
    const r = usageRequest({
      keyword: ' 合同 ',
      state: 'used',
      packageId: 'starter',
      dateFrom: '2026-03-01',
      dateTo: '2026-03-05',
    });
    expect(r).toMatchObject({ keyword: '合同', state: 'used', packageId: 'starter' });
    expect(new Date(r.dateFrom!).getDate()).toBe(1);
    expect(new Date(r.dateTo!).getDate()).toBe(5);
    expect(new Date(r.dateTo!).getHours()).toBe(23);
  });
});

describe('package list', () => {
  it('a company without a seal sees the buy button explain what is missing, with a link to add one', async () => {
    useI18nStore.getState().setLocale('en-US');
    setToken('t1');
    loginInfoHandler(
      loginInfo({ userType: 1, companyId: 'c1', isAdmin: true, hasCaCert: true, remainQuantity: 3 }),
    );
    server.use(
      http.post(`${CSIGN}/getPurchaseEligibility`, () =>
        ok({ canBuy: false, userType: 1, missing: ['seal'] }),
      ),
    );
    renderApp('/manage/productList');
    const card = await screen.findByTestId('package-card', {}, { timeout: 10_000 });
    const button = within(card).getByRole('button', { name: 'Buy Basic' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(true));
    const note = within(card).getByRole('note');
    expect(note.textContent).toBe('Buying a package needs: a seal');
    expect(within(note).getByRole('link', { name: 'a seal' }).getAttribute('href')).toMatch(
      /\/manage\/account\/stamp$/,
    );
    expect(within(card).getByText('¥99.50')).toBeTruthy();
  }, 30_000);

  it.each([
    ['en-US', 'Basic, 10 signings', '10 contract signings, valid for one year'],
    ['zh-CN', '基础套餐', '10 份电子合同签署，一年有效'],
  ] as const)(
    'a package shows its name and description in the reader’s language only (%s)',
    async (locale, name, description) => {
      useI18nStore.getState().setLocale(locale);
      setToken('t1');
      loginInfoHandler(loginInfo());
      server.use(
        http.post(`${CSIGN}/getPurchaseEligibility`, () => ok({ canBuy: true, userType: 0, missing: [] })),
        http.post(`${CSIGN}/getPackageList`, () =>
          ok([
            pkg({
              nameEn: 'Basic, 10 signings',
              description: '10 份电子合同签署，一年有效',
              descriptionEn: '10 contract signings, valid for one year',
            }),
          ]),
        ),
      );
      renderApp('/manage/productList');
      const card = await screen.findByTestId('package-card', {}, { timeout: 10_000 });
      expect(within(card).getByText(name)).toBeTruthy();
      expect(within(card).getByText(description)).toBeTruthy();
      const other = locale === 'en-US' ? /[\u3400-\u9fff]/ : /contract signings/;
      expect(card.textContent).not.toMatch(other);
    },
    30_000,
  );

  it('an account that may buy goes from the list to checkout and sees the payment notes (zh-CN)', async () => {
    useI18nStore.getState().setLocale('zh-CN');
    setToken('t1');
    loginInfoHandler(loginInfo({ userType: 0, hasCaCert: true, hasSeal: true }));
    const orders: unknown[] = [];
    const order: PackageOrder = {
      orderNo: 'PK20260301ABCDEF',
      kind: 'single',
      status: 'awaiting_payment',
      packageId: pkg().id,
      packageName: '基础套餐',
      packageNameEn: 'Basic',
      saleProductType: '10',
      signingsPerCopy: 5,
      copies: 3,
      totalQuantity: 15,
      unitPriceFen: 9950,
      amountFen: 29850,
      validityDays: 365,
      buyerType: 0,
      buyerName: '张三',
      createdAt: '2026-03-01T08:00:00.000Z',
      payBy: '2026-03-08T08:00:00.000Z',
      paidAt: null,
      validUntil: null,
      endedAt: null,
      endReason: null,
      paymentReference: null,
      allocations: [],
      paymentNotes: {
        provider: 'offline',
        accountName: 'DEVELOPMENT ONLY account',
        bankName: 'DEVELOPMENT ONLY bank',
        accountNo: '6200 0000',
        reference: 'PK20260301ABCDEF',
        amountFen: 29850,
        payBy: '2026-03-08T08:00:00.000Z',
        isDevelopmentDefault: true,
      },
    };
    server.use(
      http.post(`${CSIGN}/getPurchaseEligibility`, () => ok({ canBuy: true, userType: 0, missing: [] })),
      http.post(`${CSIGN}/createPackageOrder`, async ({ request }) => {
        orders.push(await request.json());
        return ok(order);
      }),
      http.post(`${CSIGN}/getPackageOrder`, () => ok(order)),
    );
    const { router } = renderApp('/manage/productList');
    await userEvent.click(await screen.findByRole('button', { name: '购买 基础套餐' }, { timeout: 10_000 }));
    const copies = await screen.findByLabelText('份数');
    await userEvent.clear(copies);
    await userEvent.type(copies, '3');
    fireEvent.blur(copies);
    expect(screen.getByTestId('total-signings').textContent).toBe('15');
    await userEvent.click(screen.getByRole('button', { name: '去结算' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/buy/checkout'), { timeout: 5000 });
    expect(orders).toEqual([{ packageId: pkg().id, copies: 3, userType: 0 }]);
    const notes = await screen.findByTestId('payment-notes');
    expect(within(notes).getByTestId('payment-reference').textContent).toBe('PK20260301ABCDEF');
    expect(within(notes).getByText('开发环境占位信息：这不是真实的银行账户，请勿转账。')).toBeTruthy();
    expect(within(notes).getByText('¥298.50')).toBeTruthy();
  }, 30_000);
});

describe('online payment', () => {
  it('WeChat Pay on a PC: the QR code, then the paid notice once the server says so (en-US)', async () => {
    useI18nStore.getState().setLocale('en-US');
    setToken('t1');
    loginInfoHandler(loginInfo({ userType: 0, hasCaCert: true, hasSeal: true }));
    const base = {
      orderNo: 'PK20260301WXPAY1',
      kind: 'single' as const,
      packageId: pkg().id,
      packageName: '基础套餐',
      packageNameEn: 'Basic',
      saleProductType: '10' as const,
      signingsPerCopy: 5,
      copies: 1,
      totalQuantity: 5,
      unitPriceFen: 9950,
      amountFen: 9950,
      validityDays: 365,
      buyerType: 0,
      buyerName: '张三',
      createdAt: '2026-03-01T08:00:00.000Z',
      payBy: '2026-03-08T08:00:00.000Z',
      endedAt: null,
      endReason: null,
      allocations: [],
    };
    const awaiting: PackageOrder = {
      ...base,
      status: 'awaiting_payment',
      paidAt: null,
      validUntil: null,
      paymentReference: null,
      paymentNotes: {
        provider: 'wechat',
        accountName: '',
        bankName: '',
        accountNo: '',
        reference: base.orderNo,
        amountFen: 9950,
        payBy: base.payBy,
        isDevelopmentDefault: false,
      },
    };
    const paid: PackageOrder = {
      ...base,
      status: 'paid',
      paidAt: '2026-03-01T08:05:00.000Z',
      validUntil: '2027-03-01T08:05:00.000Z',
      paymentReference: '4200000000202603010000000001',
      paymentNotes: null,
    };
    let isPaid = false;
    const starts: unknown[] = [];
    server.use(
      http.post(`${CSIGN}/getPackageOrder`, () => ok(isPaid ? paid : awaiting)),
      http.post(`${CSIGN}/startOrderPayment`, async ({ request }) => {
        starts.push(await request.json());
        return ok({
          provider: 'wechat',
          kind: 'qr',
          codeUrl: 'weixin://wxpay/bizpayurl?pr=abc',
          qrDataUrl: 'data:image/svg+xml;base64,PHN2Zy8+',
          url: null,
        });
      }),
    );
    renderApp(`/buy/checkout?orderNo=${base.orderNo}`);
    const pay = await screen.findByRole('button', { name: 'Pay with WeChat Pay' }, { timeout: 10_000 });
    expect(screen.queryByTestId('payment-notes')).toBeNull();
    await userEvent.click(pay);
    const qr = await screen.findByTestId('payment-qr');
    expect(qr.getAttribute('src')).toBe('data:image/svg+xml;base64,PHN2Zy8+');
    expect(starts).toEqual([{ orderNo: base.orderNo, channel: 'pc', userType: 0 }]);
    expect(screen.getByText('Waiting for the payment confirmation…')).toBeTruthy();
    isPaid = true;
    expect(
      await screen.findByText('Payment confirmed: the signings are in your account.', {}, { timeout: 8000 }),
    ).toBeTruthy();
  }, 30_000);
});

describe('cost calculator', () => {
  it('clamps the quantity and the price on focus-out and totals them', async () => {
    useI18nStore.getState().setLocale('en-US');
    renderApp('/pcCostCalculator');
    const quantity = await screen.findByLabelText('Number of signings', {}, { timeout: 10_000 });
    const price = screen.getByLabelText('Price per signing (CNY)');
    await userEvent.clear(quantity);
    await userEvent.type(quantity, '2000000');
    fireEvent.blur(quantity);
    expect((quantity as HTMLInputElement).value).toBe('1000000');
    await userEvent.clear(quantity);
    await userEvent.type(quantity, '12');
    fireEvent.blur(quantity);
    await userEvent.clear(price);
    await userEvent.type(price, '-2.456');
    // Non-negative decimals only: the minus never appears; two decimals on focus-out.
    expect((price as HTMLInputElement).value).toBe('2.456');
    fireEvent.blur(price);
    expect((price as HTMLInputElement).value).toBe('2.46');
    await waitFor(() => expect(screen.getByTestId('calc-total').textContent).toBe('¥29.52'), {
      timeout: 3000,
    });
  }, 30_000);
});
