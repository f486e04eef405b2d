// npm run admin -- <command>: platform administration from the shell, on the database the environment
// names (DATA_DIR / DATABASE_URL, as the server reads them). The same rules as the administrator screen
// (/manage/admin/packages), through server/modules/package/index.ts.
//   orders [--status S] [--keyword K] [--page N]   list orders (newest first)
//   confirm ORDER [--reference TEXT]               the bank transfer arrived: paid, signings credited
//   cancel ORDER [--reason TEXT]                   cancel an order awaiting payment
//   refund ORDER [--reason TEXT]                   a paid order was refunded: unused signings withdrawn
//   packages                                       list every package
//   packages add --name N --name-en N --type 10 --signings 5 --price 99.00 --days 365 [--tier 10:80.00]... [--inactive]
//   packages set ID [--active true|false] [--price 88.00] [--name N] [--name-en N] [--signings N] [--days N]
//   trust-key KEY_ID on|off                          an integrator key may (on) assert its signers' identities:
//                                                  its embedded rooms onboard without an SMS code (issue 23)
// With the embedded database (no DATABASE_URL), PGlite opens a data folder from ONE process at a time, so
// the command cannot run beside a running server on the same DATA_DIR: it says so (the server notes its pid
// in DATA_DIR/server.pid) and exits, instead of hanging. Then use the administrator screen
// (/manage/admin/packages) or stop the server first. With PostgreSQL the server may keep running.
import './require-node24.ts';
import { createHooks, createJobs } from '../server/app.ts';
import { PerApp } from '../server/lib/per-app.ts';
import pino from 'pino';
import type { PackageInfo, PackageOrder } from '../contract/calls/package.ts';
import { zPackageInput } from '../contract/calls/package.ts';
import { loadConfig } from '../server/config.ts';
import { liveServerPid } from '../server/lib/server-pid.ts';
import { closeDatabase, openDatabase } from '../server/db/database.ts';
import { type AppDeps, systemClock } from '../server/deps.ts';
import { AppError } from '../server/http/app-error.ts';
import { OutboxMessenger } from '../server/messaging/messenger.ts';
import { setKeyTrust } from '../server/modules/apikey/index.ts';
import * as svc from '../server/modules/package/index.ts';
import { openBlobStore } from '../server/storage/open-blob-store.ts';

const USAGE = `usage: npm run admin -- <command>
  orders [--status awaiting_payment|paid|cancelled|refunded|expired] [--keyword K] [--page N]
  confirm ORDER [--reference TEXT]
  cancel ORDER [--reason TEXT]
  refund ORDER [--reason TEXT]
  packages
  packages add --name N --name-en N --type 00|10|20|90|91 --signings N --price 99.00 --days N [--tier MIN:PRICE]... [--inactive]
  packages set ID [--active true|false] [--price 88.00] [--name N] [--name-en N] [--signings N] [--days N] [--type T]
  trust-key KEY_ID on|off`;

/** Positional words and --options (an option given twice keeps every value). */
export function parseArgs(argv: string[]): { words: string[]; opts: Map<string, string[]> } {
  const words: string[] = [];
  const opts = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      words.push(a);
      continue;
    }
    const name = a.slice(2);
    const next = argv[i + 1];
    const value = next === undefined || next.startsWith('--') ? 'true' : argv[++i];
    opts.set(name, [...(opts.get(name) ?? []), value]);
  }
  return { words, opts };
}

/** CNY text with at most 2 decimals to whole fen ("99.5" -> 9950). */
export function yuanToFen(text: string): number {
  if (!/^\d+(\.\d{1,2})?$/.test(text))
    throw new Error(`not an amount in CNY with at most 2 decimals: ${text}`);
  const [whole, frac = ''] = text.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

const yuan = (fen: number) => (fen / 100).toFixed(2);

function printOrder(o: PackageOrder) {
  const shares = o.allocations.map((a) => `${a.companyName}(${a.creditCode}) ${a.quantity}`).join('; ');
  console.log(
    [
      o.orderNo,
      o.status,
      o.kind,
      `${o.buyerName}`,
      `${o.packageName} x${o.copies} = ${o.totalQuantity} signings`,
      `CNY ${yuan(o.amountFen)}`,
      `created ${o.createdAt}`,
      o.paidAt ? `paid ${o.paidAt} valid until ${o.validUntil}` : `pay by ${o.payBy}`,
      shares ? `shares: ${shares}` : '',
    ]
      .filter(Boolean)
      .join(' | '),
  );
}

function printPackage(p: PackageInfo) {
  const tiers = p.tiers.map((t) => `${t.minCopies}+: ${yuan(t.priceFen)}`).join(', ');
  console.log(
    [
      p.id,
      p.isActive ? 'active' : 'inactive',
      `type ${p.saleProductType}`,
      `${p.name} / ${p.nameEn}`,
      `${p.signings} signings`,
      `CNY ${yuan(p.priceFen)}`,
      `${p.validityDays} days`,
      tiers ? `tiers ${tiers}` : '',
    ]
      .filter(Boolean)
      .join(' | '),
  );
}

const one = (opts: Map<string, string[]>, name: string) => opts.get(name)?.at(-1);

function packageFields(opts: Map<string, string[]>, base?: PackageInfo) {
  const num = (name: string) => (one(opts, name) === undefined ? undefined : Number(one(opts, name)));
  const tiers = (opts.get('tier') ?? []).map((t) => {
    const [min, price] = t.split(':');
    return { minCopies: Number(min), priceFen: yuanToFen(price ?? '') };
  });
  const active = one(opts, 'active');
  const parsed = zPackageInput.safeParse({
    name: one(opts, 'name') ?? base?.name,
    nameEn: one(opts, 'name-en') ?? base?.nameEn,
    description: one(opts, 'description') ?? base?.description ?? '',
    saleProductType: one(opts, 'type') ?? base?.saleProductType,
    signings: num('signings') ?? base?.signings,
    priceFen: one(opts, 'price') !== undefined ? yuanToFen(one(opts, 'price')!) : base?.priceFen,
    validityDays: num('days') ?? base?.validityDays,
    tiers: opts.has('tier') ? tiers : (base?.tiers ?? []),
    isActive: opts.has('inactive')
      ? false
      : active !== undefined
        ? active === 'true'
        : (base?.isActive ?? true),
  });
  if (!parsed.success)
    throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
  return parsed.data;
}

export async function run(deps: AppDeps, words: string[], opts: Map<string, string[]>): Promise<void> {
  const [command, arg] = words;
  switch (command) {
    case 'orders': {
      const page = await svc.listOrders(deps, {
        status: one(opts, 'status'),
        keyword: one(opts, 'keyword'),
        pageNum: Number(one(opts, 'page') ?? 1),
        pageSize: 50,
      });
      for (const o of page.list) printOrder(o);
      console.log(`${page.total} order(s); page ${page.pageNum}`);
      return;
    }
    case 'confirm':
      if (!arg) throw new Error('confirm needs an order number');
      printOrder(
        await svc.markOrderPaid(deps, arg, { adminUserId: null, reference: one(opts, 'reference') }),
      );
      return;
    case 'cancel':
      if (!arg) throw new Error('cancel needs an order number');
      printOrder(
        await svc.cancelOrder(deps, arg, {
          reason: one(opts, 'reason') ?? 'cancelled by a platform administrator (CLI)',
        }),
      );
      return;
    case 'refund':
      if (!arg) throw new Error('refund needs an order number');
      printOrder(
        await svc.refundOrder(deps, arg, one(opts, 'reason') ?? 'refunded by a platform administrator (CLI)'),
      );
      return;
    case 'packages': {
      if (arg === 'add') {
        printPackage(await svc.savePackage(deps, packageFields(opts)));
        return;
      }
      if (arg === 'set') {
        const id = words[2];
        const base = (await svc.listAllPackages(deps)).find((p) => p.id === id);
        if (!base) throw new Error(`no package ${id}`);
        printPackage(await svc.savePackage(deps, { ...packageFields(opts, base), id }));
        return;
      }
      for (const p of await svc.listAllPackages(deps)) printPackage(p);
      return;
    }
    case 'trust-key': {
      const setting = words[2];
      if (!arg || (setting !== 'on' && setting !== 'off')) throw new Error('trust-key needs KEY_ID on|off');
      const key = await setKeyTrust(deps, arg, setting === 'on');
      console.log(
        `${key.keyId}  ${key.name}  asserts identities: ${key.assertsIdentity ? 'yes' : 'no'}${key.revoked ? '  (revoked)' : ''}`,
      );
      return;
    }
    default:
      throw new Error(USAGE);
  }
}

if (import.meta.main) {
  const { words, opts } = parseArgs(process.argv.slice(2));
  if (words.length === 0) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = loadConfig(process.env);
  const serverPid =
    config.database.kind === 'pglite' && config.database.dataDir ? liveServerPid(config.dataDir) : null;
  if (serverPid) {
    console.error(
      `The server (process ${serverPid}) is running on ${config.dataDir}: its embedded database opens from one ` +
        'process at a time.\nUse the administrator screen (/manage/admin/packages), or stop the server and run ' +
        'this command again. (With DATABASE_URL, PostgreSQL, both can run at once.)',
    );
    process.exit(3);
  }
  const log = pino({ level: process.env.LOG_LEVEL ?? 'warn' });
  const db = await openDatabase(config);
  const jobs = createJobs({ db, log, config });
  const deps: AppDeps = {
    config,
    db,
    storage: await openBlobStore(config),
    log,
    clock: systemClock,
    hooks: createHooks(),
    jobs,
    perApp: new PerApp(),
    messenger: new OutboxMessenger({ db, log, clock: systemClock, isProduction: config.isProduction }),
  };
  let code = 0;
  try {
    await run(deps, words, opts);
  } catch (err) {
    // Refusals (already paid, not found, ...) print their message; anything else its stack.
    console.error(
      err instanceof AppError ? `refused: ${err.message}` : err instanceof Error ? err.message : err,
    );
    code = 1;
  } finally {
    await jobs.stop();
    await closeDatabase(db);
  }
  process.exit(code);
}
