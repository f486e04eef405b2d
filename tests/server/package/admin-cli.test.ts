// The administration CLI (scripts/admin.ts) on a test app's database: amounts in CNY become whole fen,
// packages are added and changed, an order is confirmed once (a second time is refused), cancel and refund.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createPackageOrder, type PackageOrder } from '#contract/calls/package.ts';
import { AppError } from '#server/http/app-error.ts';
import { parseArgs, run, yuanToFen } from '../../../scripts/admin.ts';
import { ok, personWithCert } from '../fixtures/flow.ts';
import type { TestApp } from '../helper.ts';
import { appWithPlatformAdmin, loginInfo } from '../fixtures/package.ts';

let t: TestApp;
beforeAll(async () => {
  ({ t } = await appWithPlatformAdmin({ FREE_SIGNING_ALLOWANCE: '0' }));
}, 60_000);
afterAll(() => t?.close());

/** Runs a CLI command and returns what it printed. */
async function cli(...argv: string[]): Promise<string> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => {
    lines.push(a.join(' '));
  });
  try {
    const { words, opts } = parseArgs(argv);
    await run(t.deps, words, opts);
  } finally {
    spy.mockRestore();
  }
  return lines.join('\n');
}

describe('npm run admin', () => {
  test('amounts: CNY with at most two decimals to fen', () => {
    expect(yuanToFen('99')).toBe(9900);
    expect(yuanToFen('99.5')).toBe(9950);
    expect(yuanToFen('0.01')).toBe(1);
    expect(() => yuanToFen('1.234')).toThrow(/2 decimals/);
    expect(() => yuanToFen('-1')).toThrow();
  });

  test('packages add / set / list; orders, confirm once, refund', async () => {
    const added = await cli(
      'packages',
      'add',
      '--name',
      '命令行套餐',
      '--name-en',
      'CLI',
      '--type',
      '10',
      '--signings',
      '3',
      '--price',
      '30.50',
      '--days',
      '10',
    );
    const id = added.split(' | ')[0];
    expect(added).toMatch(/CNY 30\.50 \| 10 days/);
    expect(await cli('packages', 'set', id, '--price', '25', '--active', 'false')).toMatch(
      /inactive .*CNY 25\.00/,
    );
    await cli('packages', 'set', id, '--active', 'true');
    expect(await cli('packages')).toContain(id);
    await expect(cli('packages', 'add', '--name', 'x', '--name-en', 'x', '--type', '30')).rejects.toThrow(
      /saleProductType/,
    );

    const buyer = await personWithCert(t, '命令行');
    const order = ok(
      await buyer.agent.call<PackageOrder>(createPackageOrder, { userType: 0, packageId: id, copies: 2 }),
      'order',
    );
    expect(await cli('orders', '--status', 'awaiting_payment')).toContain(order.orderNo);
    expect(await cli('confirm', order.orderNo, '--reference', 'T-1')).toMatch(
      new RegExp(`${order.orderNo} \\| paid`),
    );
    expect((await loginInfo(buyer.agent)).totalQuantitySum).toBe(6);
    await expect(cli('confirm', order.orderNo)).rejects.toThrow(AppError);
    await expect(cli('confirm', order.orderNo)).rejects.toThrow(/already paid/);
    expect(await cli('refund', order.orderNo)).toMatch(/refunded/);
    expect((await loginInfo(buyer.agent)).totalQuantitySum).toBe(0);

    const o2 = ok(
      await buyer.agent.call<PackageOrder>(createPackageOrder, { userType: 0, packageId: id, copies: 1 }),
      'order',
    );
    expect(await cli('cancel', o2.orderNo)).toMatch(/cancelled/);
    await expect(cli('confirm', o2.orderNo)).rejects.toThrow(/it is cancelled/);
  }, 60_000);
});
