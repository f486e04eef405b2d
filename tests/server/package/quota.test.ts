// The signing quota with packages, through HTTP: launching with nothing left, parallel launches against the
// last units of a package, completion uses and cancellation releases the unit of the package it came from,
// expired packages stop counting (reserved units stay honoured), the starter allowance is used last, and
// the usage detail with filters, pagination and its export.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cancelFlow, getQuota } from '#contract/calls/flow.ts';
import {
  type AccountPackage,
  exportUserPackageDetail,
  getUserPackageDetail,
  getUserPackageList,
  type PackageInfo,
  type UsageRow,
} from '#contract/calls/package.ts';
import { Code } from '#contract/codes.ts';
import {
  type Signer,
  contractPdf,
  ok,
  openByLink,
  personWithCert,
  sign,
  uploadPdf,
} from '../fixtures/flow.ts';
import type { Agent, TestApp } from '../helper.ts';
import {
  appWithPlatformAdmin,
  buyAndConfirm,
  launchOne,
  loginAgain,
  loginInfo,
  makePackage,
} from '../fixtures/package.ts';

let pdf: Uint8Array;
beforeAll(async () => {
  pdf = await contractPdf(1);
});

type Page = { list: UsageRow[]; total: number };

describe('no starter allowance (FREE_SIGNING_ALLOWANCE=0): the quota is the packages', () => {
  let t: TestApp;
  let admin: Agent;
  let adminPhone: string;
  let alice: Signer;
  let bob: Signer;
  let pack: PackageInfo;

  beforeAll(async () => {
    ({ t, admin, adminPhone } = await appWithPlatformAdmin({ FREE_SIGNING_ALLOWANCE: '0' }));
    alice = await personWithCert(t, '李四');
    bob = await personWithCert(t, '王五');
    pack = await makePackage(admin, { name: '两份', nameEn: 'Two', signings: 2, validityDays: 3 });
  }, 120_000);
  afterAll(() => t?.close());

  test('launching with nothing left is refused with how to buy', async () => {
    const info = await loginInfo(alice.agent);
    expect(info).toMatchObject({ totalQuantitySum: 0, remainQuantity: 0 });
    const res = await launchOne(alice.agent, pdf, bob.phone);
    expect(res.body.code).toBe(Code.QuotaExhausted);
    expect(res.body.msg).toMatch(/buy a package .*\/manage\/productList/);
  });

  test('parallel launches against the last units of a package: exactly as many win as there are units', async () => {
    await buyAndConfirm(alice.agent, admin, pack.id, 1);
    expect(await loginInfo(alice.agent)).toMatchObject({ totalQuantitySum: 2, remainQuantity: 2 });
    // Uploaded one after the other (as the launch screen does; parallel uploads of one account are bounded),
    // then launched all at once.
    const documentIds: string[] = [];
    for (let i = 0; i < 5; i++) documentIds.push(ok(await uploadPdf(alice.agent, pdf), 'upload').documentId);
    const results = await Promise.all(
      documentIds.map((documentId, i) =>
        launchOne(alice.agent, pdf, bob.phone, { title: `race ${i}`, documentId }),
      ),
    );
    const codes = results.map((r) => r.body.code).sort();
    expect(codes).toEqual([0, 0, Code.QuotaExhausted, Code.QuotaExhausted, Code.QuotaExhausted]);
    const info = await loginInfo(alice.agent);
    expect(info).toMatchObject({
      totalQuantitySum: 2,
      totalReserveQuantity: 2,
      totalUseQuantity: 0,
      remainQuantity: 0,
    });
    const usage = ok(await alice.agent.call<Page>(getUserPackageDetail, { userType: 0 }), 'usage');
    expect(usage.total).toBe(2);
    expect(usage.list.every((r) => r.state === 'reserved' && r.packageName === '两份')).toBe(true);
  }, 120_000);

  test('completion uses the unit and cancellation releases it back to its package', async () => {
    const usage = ok(await alice.agent.call<Page>(getUserPackageDetail, { userType: 0 }), 'usage');
    const [first, second] = usage.list;
    // Bob signs the flow launched first: completion turns its reserved unit into a used one.
    const room = await openByLink(t, bob.agent, bob.phone);
    const signed = await sign(t, bob.agent, room, bob.phone, { personSealId: bob.sealId! });
    expect(signed.body.data.flowStatus).toBe('completed');
    ok(
      await alice.agent.call(cancelFlow, {
        userType: 0,
        flowId: room.flowId === first.flowId ? second.flowId : first.flowId,
        reason: 'wrong file',
      }),
      'cancel',
    );
    const info = await loginInfo(alice.agent);
    expect(info).toMatchObject({
      totalQuantitySum: 2,
      totalReserveQuantity: 0,
      totalUseQuantity: 1,
      remainQuantity: 1,
    });
    const after = ok(await alice.agent.call<Page>(getUserPackageDetail, { userType: 0 }), 'usage');
    expect(after.list.map((r) => r.state).sort()).toEqual(['released', 'used']);
    expect(after.list.every((r) => r.settledAt !== null)).toBe(true);
    const pk = ok(
      await alice.agent.call<{ packages: AccountPackage[] }>(getUserPackageList, { userType: 0 }),
      'pk',
    );
    expect(pk.packages[0]).toMatchObject({
      quantity: 2,
      reserved: 0,
      used: 1,
      remaining: 1,
      status: 'active',
    });
    // getQuota of the flow module tells the same.
    expect(ok(await alice.agent.call(getQuota, { userType: 0 }), 'quota')).toEqual({
      total: 2,
      reserved: 0,
      used: 1,
      remaining: 1,
    });
  }, 120_000);

  test('an expired package stops counting: its unused units lapse, a unit it reserved stays honoured', async () => {
    const carol = await personWithCert(t, '赵六');
    await buyAndConfirm(carol.agent, admin, pack.id, 1);
    const launched = await launchOne(carol.agent, pdf, bob.phone, { title: 'before expiry' });
    expect(launched.body.code).toBe(0);
    expect(await loginInfo(carol.agent)).toMatchObject({
      totalQuantitySum: 2,
      totalReserveQuantity: 1,
      remainQuantity: 1,
    });
    t.clock.advance(3 * 86_400_000 + 60_000);
    carol.agent = await loginAgain(t, carol.phone);
    admin = await loginAgain(t, adminPhone);
    const info = await loginInfo(carol.agent);
    // Only the reserved unit still counts; nothing can be launched.
    expect(info).toMatchObject({
      totalQuantitySum: 1,
      totalReserveQuantity: 1,
      totalUseQuantity: 0,
      remainQuantity: 0,
    });
    expect(info.salePackageProductTypeList).toEqual([]);
    const refused = await launchOne(carol.agent, pdf, bob.phone);
    expect(refused.body.code).toBe(Code.QuotaExhausted);
    const pk = ok(
      await carol.agent.call<{ packages: AccountPackage[] }>(getUserPackageList, { userType: 0 }),
      'pk',
    );
    expect(pk.packages[0]).toMatchObject({ status: 'expired', remaining: 0, reserved: 1 });
    // The honoured unit is used when the flow completes after the expiry.
    const signer = t.agent();
    const room = await openByLink(t, signer, bob.phone);
    const signed = await sign(t, signer, room, bob.phone, { personSealId: bob.sealId! });
    expect(signed.body.code, signed.body.msg).toBe(0);
    expect(await loginInfo(carol.agent)).toMatchObject({
      totalQuantitySum: 1,
      totalReserveQuantity: 0,
      totalUseQuantity: 1,
      remainQuantity: 0,
    });
    // A new package counts again at once.
    await buyAndConfirm(carol.agent, admin, pack.id, 2);
    expect(await loginInfo(carol.agent)).toMatchObject({ totalQuantitySum: 5, remainQuantity: 4 });
  }, 120_000);
});

describe('starter allowance and packages together (FREE_SIGNING_ALLOWANCE=1)', () => {
  let t: TestApp;
  let admin: Agent;
  let alice: Signer;
  let bob: Signer;

  beforeAll(async () => {
    ({ t, admin } = await appWithPlatformAdmin({ FREE_SIGNING_ALLOWANCE: '1' }));
    alice = await personWithCert(t, '李四');
    bob = await personWithCert(t, '王五', { cert: false, seal: false });
  }, 120_000);
  afterAll(() => t?.close());

  test('packages are used before the starter allowance; parallel launches across both take exactly what is left', async () => {
    const one = await makePackage(admin, { name: '一份', nameEn: 'One', signings: 1 });
    await buyAndConfirm(alice.agent, admin, one.id, 1);
    expect(await loginInfo(alice.agent)).toMatchObject({ totalQuantitySum: 2, remainQuantity: 2 });
    const first = await launchOne(alice.agent, pdf, bob.phone, { title: 'first' });
    expect(first.body.code).toBe(0);
    const usage = ok(await alice.agent.call<Page>(getUserPackageDetail, { userType: 0 }), 'usage');
    expect(usage.list[0]).toMatchObject({ title: 'first', packageName: '一份' });
    ok(
      await alice.agent.call(cancelFlow, { userType: 0, flowId: first.body.data.flowId, reason: 'again' }),
      'cancel',
    );

    const results = await Promise.all(
      [0, 1, 2, 3].map((i) => launchOne(alice.agent, pdf, bob.phone, { title: `par ${i}` })),
    );
    expect(results.map((r) => r.body.code).sort()).toEqual([0, 0, Code.QuotaExhausted, Code.QuotaExhausted]);
    const page = ok(
      await alice.agent.call<Page>(getUserPackageDetail, { userType: 0, state: 'reserved' }),
      'usage',
    );
    // One unit from the package, one from the starter allowance (packageName null).
    expect(page.list.map((r) => r.packageName ?? 'starter').sort()).toEqual(['starter', '一份']);
    expect(await loginInfo(alice.agent)).toMatchObject({
      totalQuantitySum: 2,
      totalReserveQuantity: 2,
      remainQuantity: 0,
    });
  }, 120_000);

  test('usage detail: filters, pagination and the export return the same rows', async () => {
    const all = ok(await alice.agent.call<Page>(getUserPackageDetail, { userType: 0, pageSize: 100 }), 'all');
    expect(all.total).toBe(3);
    const p1 = ok(
      await alice.agent.call<Page>(getUserPackageDetail, { userType: 0, pageSize: 2, pageNum: 1 }),
      'p1',
    );
    const p2 = ok(
      await alice.agent.call<Page>(getUserPackageDetail, { userType: 0, pageSize: 2, pageNum: 2 }),
      'p2',
    );
    expect(p1.total).toBe(3);
    expect([...p1.list, ...p2.list].map((r) => r.flowId)).toEqual(all.list.map((r) => r.flowId));
    const released = ok(
      await alice.agent.call<Page>(getUserPackageDetail, { userType: 0, state: 'released' }),
      'rel',
    );
    expect(released.list.map((r) => r.title)).toEqual(['first']);
    const starter = ok(
      await alice.agent.call<Page>(getUserPackageDetail, { userType: 0, packageId: 'starter' }),
      's',
    );
    expect(starter.total).toBe(1);
    expect(starter.list[0].packageName).toBeNull();
    const byWord = ok(
      await alice.agent.call<Page>(getUserPackageDetail, { userType: 0, keyword: 'PAR' }),
      'kw',
    );
    expect(byWord.total).toBe(2);
    const future = ok(
      await alice.agent.call<Page>(getUserPackageDetail, {
        userType: 0,
        dateFrom: new Date(t.clock.now().getTime() + 60_000).toISOString(),
      }),
      'future',
    );
    expect(future.total).toBe(0);
    const exported = ok(
      await alice.agent.call<{ rows: UsageRow[]; isTruncated: boolean }>(exportUserPackageDetail, {
        userType: 0,
        keyword: 'par',
      }),
      'export',
    );
    expect(exported.isTruncated).toBe(false);
    expect(exported.rows).toEqual(byWord.list);
    // Another account sees none of these rows.
    expect(ok(await bob.agent.call<Page>(getUserPackageDetail, { userType: 0 }), 'bob').total).toBe(0);
  });
});
