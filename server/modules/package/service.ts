import type { Actor } from '../../lib/actor.ts';
import { randomInt, randomUUID } from 'node:crypto';
import type { AccountPackage, PackageInfo, PackageOrder, UsageRow } from '#contract/calls/package.ts';
import { Code } from '#contract/codes.ts';
import { OrderStatus, PurchaseRequirement, SaleProductType, UserType } from '#contract/enums.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, noPermission } from '../../http/app-error.ts';
import {
  companyLoginFlags,
  companyNamesOf,
  requireCompanyRole,
  verifiedCompanyByCreditCode,
} from '../company/index.ts';
import { dateOf, isoOrNull, jsonOf } from '../../db/sql-helpers.ts';
import { personHasCaCert } from '../person/index.ts';
import { hasUsableSeal } from '../seal/index.ts';
import { findUserById } from '../session/index.ts';
import { offlineTransferProvider, paymentProviderFor } from './payment-provider.ts';
import * as q from './queries.ts';
import type { Account } from '../../lib/account.ts';
import { accountOfSession, quotaDetailOf } from './quota.ts';
import { P, REQUIREMENT_TEXTS } from './texts.ts';

const DAY_MS = 86_400_000;

// ---------------------------------------------------------------------------------------------------------
// Presenters: what leaves the server

type Tier = { minCopies: number; priceFen: number };

function presentPackage(r: q.PackageRecord): PackageInfo {
  return {
    id: r.id,
    name: r.name,
    nameEn: r.nameEn,
    description: r.description,
    descriptionEn: r.descriptionEn,
    saleProductType: r.saleProductType as PackageInfo['saleProductType'],
    signings: Number(r.signings),
    priceFen: Number(r.priceFen),
    validityDays: Number(r.validityDays),
    tiers: jsonOf<Tier[]>(r.tiers),
    isActive: r.isActive,
  };
}

/** A receiver of a group order with its company's name and credit code (from the company module). */
type NamedAllocation = q.AllocationRecord & { companyName: string; creditCode: string };

function presentOrder(deps: AppDeps, r: q.OrderRecord, allocations: NamedAllocation[]): PackageOrder {
  const status = r.status as PackageOrder['status'];
  const amountFen = Number(r.amountFen);
  return {
    orderNo: r.orderNo,
    kind: r.kind,
    status,
    packageId: r.packageId,
    packageName: r.packageName,
    packageNameEn: r.packageNameEn,
    saleProductType: r.saleProductType as PackageOrder['saleProductType'],
    signingsPerCopy: Number(r.signingsPerCopy),
    copies: Number(r.copies),
    totalQuantity: Number(r.totalQuantity),
    unitPriceFen: Number(r.unitPriceFen),
    amountFen,
    validityDays: Number(r.validityDays),
    buyerType: Number(r.buyerType),
    buyerName: r.buyerName,
    createdAt: dateOf(r.createdAt).toISOString(),
    payBy: dateOf(r.payBy).toISOString(),
    paidAt: isoOrNull(r.paidAt),
    validUntil: isoOrNull(r.validUntil),
    endedAt: isoOrNull(r.endedAt),
    endReason: r.endReason,
    paymentReference: r.paymentReference,
    allocations: allocations
      .filter((a) => a.orderId === r.id)
      .map((a) => ({
        companyId: a.companyId,
        companyName: a.companyName,
        creditCode: a.creditCode,
        quantity: Number(a.quantity),
      })),
    paymentNotes:
      status === OrderStatus.AwaitingPayment
        ? (r.provider === 'offline'
            ? offlineTransferProvider(deps.config.packages)
            : paymentProviderFor(deps.config.packages)
          ).notesFor({
            orderNo: r.orderNo,
            amountFen,
            payBy: dateOf(r.payBy),
          })
        : null,
  };
}

async function presentOrders(deps: AppDeps, list: q.OrderRecord[]): Promise<PackageOrder[]> {
  const allocations = await q.allocationsOf(
    deps.db,
    list.filter((o) => o.kind === 'group').map((o) => o.id),
  );
  // The receivers by company name, as the company module orders them.
  const companies = await companyNamesOf(
    deps,
    allocations.map((a) => a.companyId),
  );
  const named: NamedAllocation[] = [];
  for (const c of companies)
    for (const a of allocations)
      if (a.companyId === c.id) named.push({ ...a, companyName: c.name, creditCode: c.creditCode });
  return list.map((o) => presentOrder(deps, o, named));
}

const presentOne = async (deps: AppDeps, r: q.OrderRecord) => (await presentOrders(deps, [r]))[0];

// ---------------------------------------------------------------------------------------------------------
// Who may do what

/**
 * Platform administrators are the users whose phone is in PLATFORM_ADMIN_PHONES; they manage packages and
 * confirm payments, whatever account (person or company) their session acts for.
 */
export async function isPlatformAdmin(deps: AppDeps, actor: Actor): Promise<boolean> {
  const phones = deps.config.packages.platformAdminPhones;
  if (phones.length === 0) return false;
  const user = await findUserById(deps.db, actor.userId);
  return user !== undefined && user !== null && phones.includes(user.phone);
}

export async function requirePlatformAdmin(deps: AppDeps, actor: Actor): Promise<void> {
  // Authorisation: only the configured platform administrators; everyone else gets HTTP 602.
  if (!(await isPlatformAdmin(deps, actor))) throw noPermission();
}

/** SPEC §6: person: certificate + seal; company: certificate + seal + operator, bought by its administrator. */
export async function purchaseEligibility(
  deps: AppDeps,
  actor: Actor,
): Promise<{ canBuy: boolean; userType: number; missing: PurchaseRequirement[] }> {
  const missing: PurchaseRequirement[] = [];
  if (actor.userType === UserType.Company) {
    const flags = await companyLoginFlags(deps, actor);
    if (!flags.hasCaCert) missing.push(PurchaseRequirement.CaCert);
    if (!(await hasUsableSeal(deps, actor))) missing.push(PurchaseRequirement.Seal);
    if (!flags.hasOperator) missing.push(PurchaseRequirement.Operator);
    if (!flags.isAdmin) missing.push(PurchaseRequirement.CompanyAdmin);
  } else {
    if (!(await personHasCaCert(deps, actor.userId))) missing.push(PurchaseRequirement.CaCert);
    if (!(await hasUsableSeal(deps, actor))) missing.push(PurchaseRequirement.Seal);
  }
  return { canBuy: missing.length === 0, userType: actor.userType, missing };
}

async function requireEligible(deps: AppDeps, actor: Actor): Promise<{ buyerName: string }> {
  const { missing } = await purchaseEligibility(deps, actor);
  const lacks = missing.filter((m) => m !== PurchaseRequirement.CompanyAdmin);
  if (lacks.length) throw new AppError(Code.Refused, P.missing(lacks.map((m) => REQUIREMENT_TEXTS[m])));
  if (actor.userType === UserType.Company) {
    // Authorisation: a company buys through its administrator only (operators get 602).
    const access = await requireCompanyRole(deps, actor, ['admin']);
    return { buyerName: access.companyName };
  }
  const user = await findUserById(deps.db, actor.userId);
  return { buyerName: user?.name ?? user?.phone ?? '' };
}

// ---------------------------------------------------------------------------------------------------------
// Packages

export async function listOnSale(deps: AppDeps, saleProductType?: string): Promise<PackageInfo[]> {
  return (await q.listPackages(deps.db, { activeOnly: true, saleProductType })).map(presentPackage);
}

export async function listAllPackages(deps: AppDeps): Promise<PackageInfo[]> {
  return (await q.listPackages(deps.db, { activeOnly: false })).map(presentPackage);
}

/** Creates (no id) or changes a package; tiers are kept sorted by their minimum copies. */
export async function savePackage(
  deps: AppDeps,
  input: q.PackageFields & { id?: string },
): Promise<PackageInfo> {
  const tiers = [...input.tiers].sort((a, b) => a.minCopies - b.minCopies);
  if (new Set(tiers.map((t) => t.minCopies)).size !== tiers.length)
    throw new AppError(Code.Refused, P.tierOrder);
  const fields = { ...input, tiers };
  const now = deps.clock.now();
  let id = input.id;
  if (id) {
    if (!(await q.updatePackage(deps.db, id, fields, now)))
      throw new AppError(Code.NotFound, P.packageNotFound);
  } else {
    id = randomUUID();
    await q.insertPackage(deps.db, id, fields, now);
  }
  return presentPackage((await q.findPackage(deps.db, id))!);
}

/** The price of one copy when buying `copies`: the highest tier reached, else the package price. */
function unitPriceFor(pkg: { priceFen: number; tiers: Tier[] }, copies: number): number {
  let price = pkg.priceFen;
  let reached = 0;
  for (const t of pkg.tiers)
    if (copies >= t.minCopies && t.minCopies > reached) {
      reached = t.minCopies;
      price = t.priceFen;
    }
  return price;
}

// ---------------------------------------------------------------------------------------------------------
// Orders

const ORDER_NO_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** PK + date (UTC) + 6 random characters without look-alikes, e.g. PK20250301K7Q2MX. */
function newOrderNo(now: Date): string {
  let tail = '';
  for (let i = 0; i < 6; i++) tail += ORDER_NO_ALPHABET[randomInt(ORDER_NO_ALPHABET.length)];
  return `PK${now.toISOString().slice(0, 10).replace(/-/g, '')}${tail}`;
}

type OrderInput = {
  packageId: string;
  copies: number;
  allocations?: { creditCode: string; quantity: number }[];
};

/** Checkout: one order awaiting payment (single purchase, or a group purchase with its distribution). */
export async function createOrder(
  deps: AppDeps,
  actor: Actor,
  kind: 'single' | 'group',
  input: OrderInput,
): Promise<PackageOrder> {
  if (kind === 'group' && actor.userType !== UserType.Company)
    throw new AppError(Code.Refused, P.groupNeedsCompany);
  const { buyerName } = await requireEligible(deps, actor);
  const row = await q.findPackage(deps.db, input.packageId);
  if (!row) throw new AppError(Code.NotFound, P.packageNotFound);
  if (!row.isActive) throw new AppError(Code.Refused, P.packageNotOnSale);
  const pkg = presentPackage(row);
  const isType20 = pkg.saleProductType === SaleProductType.UnifiedPurchase;
  if (kind === 'single' && isType20) throw new AppError(Code.Refused, P.type20IsGroup);
  if (kind === 'group' && !isType20) throw new AppError(Code.Refused, P.groupOnlyType20);
  const totalQuantity = pkg.signings * input.copies;
  const receivers: { companyId: string; quantity: number }[] = [];
  if (kind === 'group') {
    const seen = new Set<string>();
    let distributed = 0;
    for (const a of input.allocations ?? []) {
      if (seen.has(a.creditCode)) throw new AppError(Code.Refused, P.groupDuplicateCompany(a.creditCode));
      seen.add(a.creditCode);
      const company = await verifiedCompanyByCreditCode(deps, a.creditCode);
      if (!company) throw new AppError(Code.Refused, P.groupUnknownCompany(a.creditCode));
      receivers.push({ companyId: company.id, quantity: a.quantity });
      distributed += a.quantity;
    }
    if (distributed > totalQuantity)
      throw new AppError(Code.Refused, P.groupTooMany(totalQuantity, distributed));
  }
  const unitPriceFen = kind === 'group' ? unitPriceFor(pkg, input.copies) : pkg.priceFen;
  const account = accountOfSession(actor);
  const now = deps.clock.now();
  const payBy = new Date(now.getTime() + deps.config.packages.orderPaymentDays * DAY_MS);
  const id = randomUUID();
  const provider = paymentProviderFor(deps.config.packages);
  for (let attempt = 0; ; attempt++) {
    const orderNo = newOrderNo(now);
    try {
      await deps.db.transaction(async (tx) => {
        await q.insertOrder(tx, {
          id,
          orderNo,
          kind,
          account,
          buyerUserId: actor.userId,
          buyerName,
          pkg,
          copies: input.copies,
          totalQuantity,
          unitPriceFen,
          provider: provider.id,
          now,
          payBy,
        });
        for (const r of receivers) await q.insertAllocation(tx, id, r.companyId, r.quantity);
      });
      break;
    } catch (err) {
      // A clash of the random order number (unique): draw another one.
      if (attempt >= 3 || !/order_no|unique|duplicate/i.test(String((err as Error).message))) throw err;
    }
  }
  return presentOne(deps, (await q.findOrderById(deps.db, id))!);
}

export async function getOwnOrder(deps: AppDeps, actor: Actor, orderNo: string): Promise<PackageOrder> {
  await q.expireUnpaidOrders(deps.db, deps.clock.now());
  const row = await q.findOwnOrder(deps.db, accountOfSession(actor), orderNo);
  if (!row) throw new AppError(Code.NotFound, P.orderNotFound);
  return presentOne(deps, row);
}

export async function listOrders(
  deps: AppDeps,
  f: { account?: Account; status?: string; keyword?: string; pageNum: number; pageSize: number },
) {
  await q.expireUnpaidOrders(deps.db, deps.clock.now());
  const { list, total } = await q.listOrders(deps.db, {
    ...f,
    limit: f.pageSize,
    offset: (f.pageNum - 1) * f.pageSize,
  });
  return { list: await presentOrders(deps, list), total, pageNum: f.pageNum, pageSize: f.pageSize };
}

/** Ends an order awaiting payment (the buyer or a platform administrator cancels it). */
export async function cancelOrder(
  deps: AppDeps,
  orderNo: string,
  by: { account?: Account; reason: string },
): Promise<PackageOrder> {
  const now = deps.clock.now();
  await q.expireUnpaidOrders(deps.db, now);
  const row = by.account
    ? await q.findOwnOrder(deps.db, by.account, orderNo)
    : await q.findOrderByNo(deps.db, orderNo);
  if (!row) throw new AppError(Code.NotFound, P.orderNotFound);
  const done = await q.cancelUnpaidOrder(deps.db, row.id, by.reason, now);
  if (!done) throw new AppError(Code.Refused, P.orderNotAwaiting(row.status));
  return presentOne(deps, done);
}

/**
 * The one place an order becomes paid: status paid (only from awaiting payment, so a second confirmation
 * is refused), validity from now, and the signings credited — a group purchase's shares to the receiving
 * companies, the rest to the buyer — all in one transaction.
 */
export async function markOrderPaid(
  deps: AppDeps,
  orderNo: string,
  by: { adminUserId: string | null; reference?: string },
): Promise<PackageOrder> {
  const now = deps.clock.now();
  await q.expireUnpaidOrders(deps.db, now);
  const paid = await deps.db.transaction(async (tx) => {
    const row = await q.findOrderByNo(tx, orderNo, true);
    if (!row) throw new AppError(Code.NotFound, P.orderNotFound);
    if (row.status === OrderStatus.Paid) throw new AppError(Code.Refused, P.alreadyPaid);
    if (row.status !== OrderStatus.AwaitingPayment)
      throw new AppError(Code.Refused, P.orderNotAwaiting(row.status));
    const validUntil = new Date(now.getTime() + Number(row.validityDays) * DAY_MS);
    const updated = await q.markOrderPaidRow(tx, row.id, {
      now,
      validUntil,
      adminUserId: by.adminUserId,
      reference: by.reference ?? null,
    });
    if (!updated) throw new AppError(Code.Refused, P.alreadyPaid);
    const grant = async (
      ownerType: number,
      ownerId: string,
      quantity: number,
      source: 'purchase' | 'group',
    ) => q.insertAccountPackage(tx, { ownerType, ownerId, order: row, source, quantity, now, validUntil });
    let kept = Number(row.totalQuantity);
    for (const a of await q.allocationsOf(tx, [row.id])) {
      await grant(UserType.Company, a.companyId, Number(a.quantity), 'group');
      kept -= Number(a.quantity);
    }
    if (kept > 0) await grant(Number(row.buyerType), row.buyerId, kept, 'purchase');
    return updated;
  });
  return presentOne(deps, paid);
}

/**
 * A paid order was refunded: the order ends as refunded and each of its packages keeps only what running
 * or completed flows hold (quantity = reserved + used): the unused signings are withdrawn.
 */
export async function refundOrder(deps: AppDeps, orderNo: string, reason: string): Promise<PackageOrder> {
  const now = deps.clock.now();
  const done = await deps.db.transaction(async (tx) => {
    const row = await q.findOrderByNo(tx, orderNo, true);
    if (!row) throw new AppError(Code.NotFound, P.orderNotFound);
    if (row.status !== OrderStatus.Paid) throw new AppError(Code.Refused, P.orderNotPaid);
    const updated = (await q.markOrderRefunded(tx, row.id, reason, now))!;
    await q.refundAccountPackages(tx, row.id);
    return updated;
  });
  return presentOne(deps, done);
}

// ---------------------------------------------------------------------------------------------------------
// The account's packages and usage

export async function accountPackages(deps: AppDeps, actor: Actor) {
  const account = accountOfSession(actor);
  const now = deps.clock.now().getTime();
  const packages: AccountPackage[] = (await q.grantsOf(deps.db, account)).map((g) => {
    const expiresAt = dateOf(g.expiresAt);
    const status = g.status === 'refunded' ? 'refunded' : expiresAt.getTime() <= now ? 'expired' : 'active';
    const quantity = Number(g.quantity);
    const reserved = Number(g.reserved);
    const used = Number(g.used);
    return {
      id: g.id,
      name: g.name,
      nameEn: g.nameEn,
      saleProductType: g.saleProductType as AccountPackage['saleProductType'],
      source: g.source,
      fromCompanyName: g.source === 'group' ? g.buyerName : null,
      orderNo: g.orderNo,
      quantity,
      reserved,
      used,
      remaining: status === 'active' ? Math.max(0, quantity - reserved - used) : 0,
      startsAt: dateOf(g.startsAt).toISOString(),
      expiresAt: expiresAt.toISOString(),
      status,
    };
  });
  const d = await quotaDetailOf(deps, account);
  return {
    packages,
    quota: {
      totalQuantitySum: d.total,
      totalReserveQuantity: d.reserved,
      totalUseQuantity: d.used,
      remainQuantity: d.remaining,
      starter: d.starter,
    },
  };
}

const presentUsage = (r: q.UsageRecord): UsageRow => ({
  flowId: r.flowId,
  title: r.title,
  initiatorName: r.initiatorName,
  launchedAt: dateOf(r.reservedAt).toISOString(),
  state: r.state,
  settledAt: isoOrNull(r.settledAt),
  accountPackageId: r.accountPackageId,
  packageName: r.packageName,
  packageNameEn: r.packageNameEn,
});

export async function usageDetail(
  deps: AppDeps,
  actor: Actor,
  f: q.UsageFilters,
  page: { pageNum: number; pageSize: number },
) {
  const { list, total } = await q.usageOf(deps.db, accountOfSession(actor), f, {
    limit: page.pageSize,
    offset: (page.pageNum - 1) * page.pageSize,
  });
  return { list: list.map(presentUsage), total, pageNum: page.pageNum, pageSize: page.pageSize };
}

export async function usageExport(deps: AppDeps, actor: Actor, f: q.UsageFilters, max: number) {
  const { list, total } = await q.usageOf(deps.db, accountOfSession(actor), f, { limit: max, offset: 0 });
  return { rows: list.map(presentUsage), isTruncated: total > list.length };
}
