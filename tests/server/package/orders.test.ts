// Packages and orders through HTTP: who manages packages, what buying needs (SPEC §6), checkout with the
// payment notes, confirmation by a platform administrator (once), cancellation, expiry of unpaid orders,
// refunds, and group purchase with distribution to other companies.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AccountPackage,
  adminCancelOrder,
  adminConfirmOrder,
  adminGetOrderList,
  adminGetPackageList,
  adminRefundOrder,
  adminSavePackage,
  cancelPackageOrder,
  createGroupOrder,
  createPackageOrder,
  getPackageList,
  getPackageOrder,
  getPackageOrderList,
  getPlatformAdminInfo,
  getPurchaseEligibility,
  getUserPackageList,
  type PackageInfo,
  type PackageOrder,
} from '#contract/calls/package.ts';
import { Code, HttpStatus } from '#contract/codes.ts';
import { newCreditCode, openCompany } from '../fixtures/company.ts';
import { type Signer, type TestCompany, companyWithSeals, ok, personWithCert } from '../fixtures/flow.ts';
import type { Agent, TestApp } from '../helper.ts';
import {
  appWithPlatformAdmin,
  buyAndConfirm,
  confirmOrder,
  loginAgain,
  loginInfo,
  makePackage,
  newGroupOrder,
  newOrder,
  readOrder,
  refundOrder,
} from '../fixtures/package.ts';

let t: TestApp;
let admin: Agent;
let adminPhone: string;
let buyer: Signer;
let basic: PackageInfo;

beforeAll(async () => {
  ({ t, admin, adminPhone } = await appWithPlatformAdmin({
    FREE_SIGNING_ALLOWANCE: '10',
    ORDER_PAYMENT_DAYS: '3',
  }));
  buyer = await personWithCert(t, '钱八');
  basic = await makePackage(admin, { name: '基础套餐', nameEn: 'Basic', signings: 5, priceFen: 9900 });
}, 120_000);
afterAll(() => t?.close());

describe('packages are managed by platform administrators', () => {
  test('a user who is not a platform administrator is refused with 602; the administrator sees every package', async () => {
    expect(
      ok(await buyer.agent.call<{ isPlatformAdmin: boolean }>(getPlatformAdminInfo, { userType: 0 }), 'info'),
    ).toEqual({ isPlatformAdmin: false });
    expect(
      ok(await admin.call<{ isPlatformAdmin: boolean }>(getPlatformAdminInfo, { userType: 0 }), 'info'),
    ).toEqual({
      isPlatformAdmin: true,
    });
    const save = await buyer.agent.call(adminSavePackage, {
      userType: 0,
      name: 'x',
      nameEn: 'x',
      saleProductType: '10',
      signings: 1,
      priceFen: 1,
      validityDays: 1,
    });
    expect(save.status).toBe(HttpStatus.NoPermission);
    const list = await buyer.agent.call(adminGetPackageList, { userType: 0 });
    expect(list.status).toBe(HttpStatus.NoPermission);
    const orders = await buyer.agent.call(adminGetOrderList, { userType: 0 });
    expect(orders.status).toBe(HttpStatus.NoPermission);
  });

  test('inactive packages are not on sale; prices are whole fen', async () => {
    const hidden = await makePackage(admin, { name: '停售', nameEn: 'Withdrawn', isActive: false });
    const onSale = ok(await t.agent().call<PackageInfo[]>(getPackageList, { userType: 0 }), 'list');
    expect(onSale.map((p) => p.id)).toContain(basic.id);
    expect(onSale.map((p) => p.id)).not.toContain(hidden.id);
    const all = ok(await admin.call<PackageInfo[]>(adminGetPackageList, { userType: 0 }), 'all');
    expect(all.find((p) => p.id === hidden.id)?.isActive).toBe(false);
    const fractional = await admin.call(adminSavePackage, {
      userType: 0,
      name: 'x',
      nameEn: 'x',
      saleProductType: '10',
      signings: 1,
      priceFen: 12.5,
      validityDays: 1,
    });
    expect(fractional.body.code).toBe(Code.BadRequest);
    const badType = await admin.call(adminSavePackage, {
      userType: 0,
      name: 'x',
      nameEn: 'x',
      saleProductType: '30',
      signings: 1,
      priceFen: 1,
      validityDays: 1,
    });
    expect(badType.body.code).toBe(Code.BadRequest);
    // Buying a withdrawn package is refused.
    const res = await buyer.agent.call(createPackageOrder, { userType: 0, packageId: hidden.id, copies: 1 });
    expect(res.body.code).toBe(Code.Refused);
    expect(res.body.msg).toMatch(/not on sale/);
  });
});

describe('buying needs a certificate and a seal (a company: and an operator, bought by its administrator)', () => {
  test('a person without certificate and seal is refused with a message naming both, in both languages', async () => {
    const bare = await personWithCert(t, '孙九', { cert: false, seal: false });
    const el = ok(
      await bare.agent.call<{ canBuy: boolean; missing: string[] }>(getPurchaseEligibility, { userType: 0 }),
      'eligibility',
    );
    expect(el).toMatchObject({ canBuy: false, missing: ['caCert', 'seal'] });
    const res = await bare.agent.call(createPackageOrder, { userType: 0, packageId: basic.id, copies: 1 });
    expect(res.body.code).toBe(Code.Refused);
    expect(res.body.msg).toBe('to buy a package you still need a digital certificate, a seal');
    const zh = await bare.agent.call(
      createPackageOrder,
      { userType: 0, packageId: basic.id, copies: 1 },
      { headers: { 'accept-language': 'zh-CN' } },
    );
    expect(zh.body.msg).toBe('购买套餐还缺少：数字证书、印章');
    const withCert = await personWithCert(t, '周十', { seal: false });
    const res2 = await withCert.agent.call(createPackageOrder, {
      userType: 0,
      packageId: basic.id,
      copies: 1,
    });
    expect(res2.body.msg).toBe('to buy a package you still need a seal');
  }, 60_000);

  test('a company without a seal is refused naming the seal; its operator is refused with 602', async () => {
    const applicant = await personWithCert(t, '吴总', { seal: false, cert: false });
    await openCompany(t, applicant);
    const el = ok(
      await applicant.agent.call<{ missing: string[] }>(getPurchaseEligibility, { userType: 1 }),
      'eligibility',
    );
    expect(el.missing).toEqual(['seal']);
    const res = await applicant.agent.call(createPackageOrder, {
      userType: 1,
      packageId: basic.id,
      copies: 1,
    });
    expect(res.body.msg).toBe('to buy a package you still need a seal');

    const company = await companyWithSeals(t, '郑总');
    const ready = ok(
      await company.admin.agent.call<{ canBuy: boolean }>(getPurchaseEligibility, { userType: 1 }),
      'eligibility',
    );
    expect(ready.canBuy).toBe(true);
    const opEl = ok(
      await company.operator.agent.call<{ missing: string[] }>(getPurchaseEligibility, { userType: 1 }),
      'eligibility',
    );
    expect(opEl.missing).toContain('companyAdmin');
    const byOperator = await company.operator.agent.call(createPackageOrder, {
      userType: 1,
      packageId: basic.id,
      copies: 1,
    });
    expect(byOperator.status).toBe(HttpStatus.NoPermission);
  }, 120_000);
});

describe('checkout, payment notes and confirmation', () => {
  test('an order awaits payment with the bank details and the order number; confirmation credits the signings once', async () => {
    const before = await loginInfo(buyer.agent);
    const order = await newOrder(buyer.agent, basic.id, 2);
    expect(order).toMatchObject({
      status: 'awaiting_payment',
      copies: 2,
      totalQuantity: 10,
      unitPriceFen: 9900,
      amountFen: 19800,
      kind: 'single',
    });
    expect(order.orderNo).toMatch(/^PK\d{8}[A-Z2-9]{6}$/);
    expect(order.paymentNotes).toMatchObject({
      provider: 'offline',
      reference: order.orderNo,
      amountFen: 19800,
      isDevelopmentDefault: true,
    });
    expect(order.paymentNotes?.accountName).toMatch(/DEVELOPMENT ONLY/);
    // Three days to pay (ORDER_PAYMENT_DAYS=3).
    expect(Date.parse(order.payBy) - Date.parse(order.createdAt)).toBe(3 * 86_400_000);
    // Nothing is credited before the payment is confirmed.
    expect((await loginInfo(buyer.agent)).totalQuantitySum).toBe(before.totalQuantitySum);

    const byBuyer = await buyer.agent.call(adminConfirmOrder, { userType: 0, orderNo: order.orderNo });
    expect(byBuyer.status).toBe(HttpStatus.NoPermission);

    const paid = await confirmOrder(admin, order.orderNo, 'BANK-123');
    expect(paid.status).toBe('paid');
    expect(paid.paymentNotes).toBeNull();
    expect(Date.parse(paid.validUntil!) - Date.parse(paid.paidAt!)).toBe(30 * 86_400_000);
    const after = await loginInfo(buyer.agent);
    expect(after.totalQuantitySum).toBe(before.totalQuantitySum + 10);
    expect(after.remainQuantity).toBe(before.remainQuantity + 10);
    expect(after.salePackageProductTypeList).toEqual(['10']);

    const twice = await admin.call(adminConfirmOrder, { userType: 0, orderNo: order.orderNo });
    expect(twice.body.code).toBe(Code.Refused);
    expect(twice.body.msg).toBe('this order is already paid');
    expect((await loginInfo(buyer.agent)).totalQuantitySum).toBe(after.totalQuantitySum);

    // Parallel confirmations of one order: one wins, the signings are credited once.
    const o2 = await newOrder(buyer.agent, basic.id, 1);
    const race = await Promise.all(
      [0, 1, 2].map(() => admin.call(adminConfirmOrder, { userType: 0, orderNo: o2.orderNo })),
    );
    expect(race.map((r) => r.body.code).sort()).toEqual([0, Code.Refused, Code.Refused]);
    expect((await loginInfo(buyer.agent)).totalQuantitySum).toBe(after.totalQuantitySum + 5);

    const mine = ok(
      await buyer.agent.call<{ list: PackageOrder[]; total: number }>(getPackageOrderList, { userType: 0 }),
      'orders',
    );
    expect(mine.list.map((o) => o.orderNo)).toEqual([o2.orderNo, order.orderNo]);
    const pk = ok(
      await buyer.agent.call<{ packages: AccountPackage[] }>(getUserPackageList, { userType: 0 }),
      'packages',
    );
    expect(pk.packages.map((p) => p.quantity).sort()).toEqual([10, 5]);
  }, 60_000);

  test('another account cannot read or cancel the order; unknown orders are not found', async () => {
    const order = await newOrder(buyer.agent, basic.id, 1);
    const other = await personWithCert(t, '冯十一', { cert: false, seal: false });
    expect((await other.agent.call(getPackageOrder, { userType: 0, orderNo: order.orderNo })).body.code).toBe(
      Code.NotFound,
    );
    expect(
      (await other.agent.call(cancelPackageOrder, { userType: 0, orderNo: order.orderNo })).body.code,
    ).toBe(Code.NotFound);
    expect(
      (await admin.call(adminConfirmOrder, { userType: 0, orderNo: 'PK00000000XXXXXX' })).body.code,
    ).toBe(Code.NotFound);
  }, 60_000);

  test('a cancelled order cannot be confirmed; an administrator may cancel an unpaid order', async () => {
    const order = await newOrder(buyer.agent, basic.id, 1);
    const cancelled = ok(
      await buyer.agent.call<PackageOrder>(cancelPackageOrder, { userType: 0, orderNo: order.orderNo }),
      'cancel',
    );
    expect(cancelled.status).toBe('cancelled');
    const confirm = await admin.call(adminConfirmOrder, { userType: 0, orderNo: order.orderNo });
    expect(confirm.body.code).toBe(Code.Refused);
    expect(confirm.body.msg).toMatch(/does not await payment \(it is cancelled\)/);
    const o2 = await newOrder(buyer.agent, basic.id, 1);
    expect(
      ok(await admin.call<PackageOrder>(adminCancelOrder, { userType: 0, orderNo: o2.orderNo }), 'c').status,
    ).toBe('cancelled');
  });

  test('an unpaid order expires after ORDER_PAYMENT_DAYS and cannot be confirmed then', async () => {
    const order = await newOrder(buyer.agent, basic.id, 1);
    t.clock.advance(3 * 86_400_000 + 1000);
    admin = await loginAgain(t, adminPhone);
    buyer.agent = await loginAgain(t, buyer.phone);
    const read = await readOrder(buyer.agent, order.orderNo);
    expect(read.status).toBe('expired');
    expect(read.paymentNotes).toBeNull();
    const confirm = await admin.call(adminConfirmOrder, { userType: 0, orderNo: order.orderNo });
    expect(confirm.body.msg).toMatch(/it is expired/);
    const listed = ok(
      await admin.call<{ list: PackageOrder[] }>(adminGetOrderList, { userType: 0, status: 'expired' }),
      'admin list',
    );
    expect(listed.list.map((o) => o.orderNo)).toContain(order.orderNo);
  });

  test('a refund withdraws the unused signings of the order', async () => {
    const p = await personWithCert(t, '陈十二');
    const before = await loginInfo(p.agent);
    const paid = await buyAndConfirm(p.agent, admin, basic.id, 1);
    expect((await loginInfo(p.agent)).totalQuantitySum).toBe(before.totalQuantitySum + 5);
    const refunded = await refundOrder(admin, paid.orderNo, 'customer asked');
    expect(refunded).toMatchObject({ status: 'refunded', endReason: 'customer asked' });
    const after = await loginInfo(p.agent);
    expect(after.totalQuantitySum).toBe(before.totalQuantitySum);
    expect(after.salePackageProductTypeList).toEqual([]);
    const again = await admin.call(adminRefundOrder, { userType: 0, orderNo: paid.orderNo });
    expect(again.body.msg).toBe('only a paid order can be refunded');
  }, 60_000);
});

describe('group purchase (type 20): one company buys at the tier price and distributes', () => {
  let buyerCo: TestCompany;
  let receiverCo: TestCompany;
  let receiverCode: string;
  let group: PackageInfo;

  beforeAll(async () => {
    buyerCo = await companyWithSeals(t, '统购管理');
    receiverCo = await companyWithSeals(t, '收货管理');
    const r = await t.db.execute(sql`SELECT credit_code FROM companies WHERE id = ${receiverCo.id}`);
    receiverCode = (r as unknown as { rows: { credit_code: string }[] }).rows[0].credit_code;
    group = await makePackage(admin, {
      name: '统购统配',
      nameEn: 'Unified purchase',
      saleProductType: '20',
      signings: 10,
      priceFen: 50000,
      tiers: [
        { minCopies: 10, priceFen: 40000 },
        { minCopies: 5, priceFen: 45000 },
      ],
    });
  }, 180_000);

  test('type 20 is sold only by group purchase, and group purchase only sells type 20', async () => {
    const single = await buyerCo.admin.agent.call(createPackageOrder, {
      userType: 1,
      packageId: group.id,
      copies: 1,
    });
    expect(single.body.msg).toMatch(/bought by group purchase/);
    const wrong = await buyerCo.admin.agent.call(createGroupOrder, {
      userType: 1,
      packageId: basic.id,
      copies: 1,
      allocations: [{ creditCode: receiverCode, quantity: 1 }],
    });
    expect(wrong.body.msg).toMatch(/type 20/);
    const asPerson = await buyer.agent.call(createGroupOrder, {
      userType: 0,
      packageId: group.id,
      copies: 1,
      allocations: [{ creditCode: receiverCode, quantity: 1 }],
    });
    expect(asPerson.body.msg).toMatch(/made by a company/);
  });

  test('distributing more than bought is refused; unknown companies are refused', async () => {
    const tooMany = await buyerCo.admin.agent.call(createGroupOrder, {
      userType: 1,
      packageId: group.id,
      copies: 2,
      allocations: [{ creditCode: receiverCode, quantity: 21 }],
    });
    expect(tooMany.body.code).toBe(Code.Refused);
    expect(tooMany.body.msg).toBe('you distribute 21 signings but buy only 20');
    const unknown = await buyerCo.admin.agent.call(createGroupOrder, {
      userType: 1,
      packageId: group.id,
      copies: 2,
      allocations: [{ creditCode: newCreditCode(), quantity: 1 }],
    });
    expect(unknown.body.msg).toMatch(/no verified company/);
  });

  test('the tier price applies; after confirmation the receiver owns its share and the buyer the rest', async () => {
    const receiverBefore = await loginInfo(receiverCo.admin.agent, 1);
    const buyerBefore = await loginInfo(buyerCo.admin.agent, 1);
    const order = await newGroupOrder(buyerCo.admin.agent, group.id, 6, [
      { creditCode: receiverCode, quantity: 25 },
    ]);
    expect(order).toMatchObject({ kind: 'group', unitPriceFen: 45000, amountFen: 270000, totalQuantity: 60 });
    expect(order.allocations).toEqual([
      { companyId: receiverCo.id, companyName: receiverCo.name, creditCode: receiverCode, quantity: 25 },
    ]);
    await confirmOrder(admin, order.orderNo);
    const receiverAfter = await loginInfo(receiverCo.admin.agent, 1);
    expect(receiverAfter.totalQuantitySum).toBe(receiverBefore.totalQuantitySum + 25);
    expect(receiverAfter.salePackageProductTypeList).toEqual(['20']);
    expect((await loginInfo(buyerCo.admin.agent, 1)).totalQuantitySum).toBe(
      buyerBefore.totalQuantitySum + 35,
    );
    const received = ok(
      await receiverCo.admin.agent.call<{ packages: AccountPackage[] }>(getUserPackageList, { userType: 1 }),
      'received',
    );
    expect(received.packages).toEqual([
      expect.objectContaining({
        source: 'group',
        fromCompanyName: buyerCo.name,
        quantity: 25,
        remaining: 25,
      }),
    ]);
    // The receiver's operator acts for the same company: it sees the same remaining quantity.
    expect((await loginInfo(receiverCo.operator.agent, 1)).remainQuantity).toBe(receiverAfter.remainQuantity);
  }, 60_000);
});
