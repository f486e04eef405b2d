import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { camelOne, camelRows, type Exec, one, rows, ts } from '../../db/sql-helpers.ts';
import type { Account } from '../../lib/account.ts';

// SQL of the package module. Every query reading an account's data takes that account as an argument.

export type PackageRecord = {
  id: string;
  name: string;
  nameEn: string;
  description: string;
  descriptionEn: string;
  saleProductType: string;
  signings: number;
  priceFen: number;
  validityDays: number;
  tiers: unknown;
  isActive: boolean;
  createdAt: unknown;
  updatedAt: unknown;
};

export type OrderRecord = {
  id: string;
  orderNo: string;
  kind: 'single' | 'group';
  buyerType: number;
  buyerId: string;
  buyerUserId: string;
  buyerName: string;
  packageId: string;
  packageName: string;
  packageNameEn: string;
  saleProductType: string;
  signingsPerCopy: number;
  copies: number;
  totalQuantity: number;
  unitPriceFen: number;
  amountFen: number;
  validityDays: number;
  status: string;
  provider: string;
  createdAt: unknown;
  payBy: unknown;
  paidAt: unknown;
  validUntil: unknown;
  confirmedBy: string | null;
  paymentReference: string | null;
  endedAt: unknown;
  endReason: string | null;
  providerTradeNo: string | null;
  refundId: string | null;
};

export type AllocationRecord = {
  orderId: string;
  companyId: string;
  quantity: number;
};

type GrantRecord = {
  id: string;
  ownerType: number;
  ownerId: string;
  orderId: string;
  source: 'purchase' | 'group';
  name: string;
  nameEn: string;
  saleProductType: string;
  quantity: number;
  reserved: number;
  used: number;
  startsAt: unknown;
  expiresAt: unknown;
  status: 'active' | 'refunded';
  orderNo: string;
  buyerName: string;
};

export type UsageRecord = {
  flowId: string;
  title: string;
  initiatorName: string | null;
  reservedAt: unknown;
  state: 'reserved' | 'used' | 'released';
  settledAt: unknown;
  accountPackageId: string | null;
  packageName: string | null;
  packageNameEn: string | null;
};

// ---- packages

export const findPackage = (ex: Exec, id: string) =>
  camelOne<PackageRecord>(ex, sql`SELECT * FROM packages WHERE id = ${id}`);

export const listPackages = (ex: Exec, opts: { activeOnly: boolean; saleProductType?: string }) =>
  camelRows<PackageRecord>(
    ex,
    sql`SELECT * FROM packages WHERE TRUE
        ${opts.activeOnly ? sql`AND is_active` : sql``}
        ${opts.saleProductType ? sql`AND sale_product_type = ${opts.saleProductType}` : sql``}
        ORDER BY sale_product_type, price_fen, created_at`,
  );

export type PackageFields = {
  name: string;
  nameEn: string;
  description: string;
  descriptionEn: string;
  saleProductType: string;
  signings: number;
  priceFen: number;
  validityDays: number;
  tiers: { minCopies: number; priceFen: number }[];
  isActive: boolean;
};

export async function insertPackage(ex: Exec, id: string, f: PackageFields, now: Date): Promise<void> {
  await ex.execute(sql`INSERT INTO packages (id, name, name_en, description, description_en, sale_product_type, signings,
      price_fen, validity_days, tiers, is_active, created_at, updated_at)
    VALUES (${id}, ${f.name}, ${f.nameEn}, ${f.description}, ${f.descriptionEn}, ${f.saleProductType}, ${f.signings},
      ${f.priceFen}, ${f.validityDays}, ${JSON.stringify(f.tiers)}::jsonb, ${f.isActive}, ${ts(now)}, ${ts(now)})`);
}

export async function updatePackage(ex: Exec, id: string, f: PackageFields, now: Date): Promise<boolean> {
  const r = await rows(
    ex,
    sql`UPDATE packages SET name = ${f.name}, name_en = ${f.nameEn}, description = ${f.description},
        description_en = ${f.descriptionEn},
        sale_product_type = ${f.saleProductType}, signings = ${f.signings}, price_fen = ${f.priceFen},
        validity_days = ${f.validityDays}, tiers = ${JSON.stringify(f.tiers)}::jsonb, is_active = ${f.isActive},
        updated_at = ${ts(now)}
      WHERE id = ${id} RETURNING id`,
  );
  return r.length === 1;
}

// ---- orders

/** Unpaid orders past their pay-by time become expired (run before orders are read or changed). */
export async function expireUnpaidOrders(ex: Exec, now: Date): Promise<void> {
  await ex.execute(sql`UPDATE package_orders SET status = 'expired', ended_at = pay_by, end_reason = 'not paid in time'
    WHERE status = 'awaiting_payment' AND pay_by <= ${ts(now)}`);
}

export const findOrderByNo = (ex: Exec, orderNo: string, forUpdate = false) =>
  camelOne<OrderRecord>(
    ex,
    sql`SELECT * FROM package_orders WHERE order_no = ${orderNo} ${forUpdate ? sql`FOR UPDATE` : sql``}`,
  );

export const findOwnOrder = (ex: Exec, a: Account, orderNo: string) =>
  camelOne<OrderRecord>(
    ex,
    sql`SELECT * FROM package_orders WHERE order_no = ${orderNo} AND buyer_type = ${a.ownerType} AND buyer_id = ${a.ownerId}`,
  );

function orderWhere(f: { account?: Account; status?: string; keyword?: string }): SQL {
  const conds: SQL[] = [sql`TRUE`];
  if (f.account) conds.push(sql`buyer_type = ${f.account.ownerType} AND buyer_id = ${f.account.ownerId}`);
  if (f.status) conds.push(sql`status = ${f.status}`);
  if (f.keyword) {
    const like = `%${escapeLike(f.keyword.trim().toLowerCase())}%`;
    conds.push(sql`(lower(order_no) LIKE ${like} OR lower(buyer_name) LIKE ${like})`);
  }
  return sql.join(conds, sql` AND `);
}

export async function listOrders(
  ex: Exec,
  f: { account?: Account; status?: string; keyword?: string; limit: number; offset: number },
): Promise<{ list: OrderRecord[]; total: number }> {
  const where = orderWhere(f);
  const total = await one<{ n: number }>(
    ex,
    sql`SELECT count(*)::int AS n FROM package_orders WHERE ${where}`,
  );
  const list = await camelRows<OrderRecord>(
    ex,
    sql`SELECT * FROM package_orders WHERE ${where} ORDER BY created_at DESC, order_no LIMIT ${f.limit} OFFSET ${f.offset}`,
  );
  return { list, total: Number(total?.n ?? 0) };
}

/** The receivers of group orders (company ids; their names come from the company module). */
export async function allocationsOf(ex: Exec, orderIds: string[]): Promise<AllocationRecord[]> {
  if (orderIds.length === 0) return [];
  return camelRows<AllocationRecord>(
    ex,
    sql`SELECT a.order_id, a.company_id, a.quantity FROM package_order_allocations a
        WHERE a.order_id IN (${sql.join(
          orderIds.map((id) => sql`${id}`),
          sql`, `,
        )}) ORDER BY a.order_id, a.company_id`,
  );
}

// ---- the account's packages and usage

export const grantsOf = (ex: Exec, a: Account) =>
  camelRows<GrantRecord>(
    ex,
    sql`SELECT ap.*, o.order_no, o.buyer_name FROM account_packages ap JOIN package_orders o ON o.id = ap.order_id
        WHERE ap.owner_type = ${a.ownerType} AND ap.owner_id = ${a.ownerId}
        ORDER BY ap.expires_at DESC, ap.created_at DESC`,
  );

export type UsageFilters = {
  state?: string;
  packageId?: string;
  dateFrom?: string;
  dateTo?: string;
  keyword?: string;
};

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function usageWhere(a: Account, f: UsageFilters): SQL {
  const conds: SQL[] = [sql`h.owner_type = ${a.ownerType} AND h.owner_id = ${a.ownerId}`];
  if (f.state) conds.push(sql`h.state = ${f.state}`);
  if (f.packageId === 'starter') conds.push(sql`h.account_package_id IS NULL`);
  else if (f.packageId) conds.push(sql`h.account_package_id = ${f.packageId}`);
  if (f.dateFrom) conds.push(sql`h.reserved_at >= ${f.dateFrom}`);
  if (f.dateTo) conds.push(sql`h.reserved_at <= ${f.dateTo}`);
  if (f.keyword?.trim())
    conds.push(sql`lower(h.flow_title) LIKE ${`%${escapeLike(f.keyword.trim().toLowerCase())}%`}`);
  return sql.join(conds, sql` AND `);
}

export async function usageOf(
  ex: Exec,
  a: Account,
  f: UsageFilters,
  page: { limit: number; offset: number },
): Promise<{ list: UsageRecord[]; total: number }> {
  const where = usageWhere(a, f);
  const from = sql`FROM quota_holds h LEFT JOIN account_packages ap ON ap.id = h.account_package_id`;
  const total = await one<{ n: number }>(ex, sql`SELECT count(*)::int AS n ${from} WHERE ${where}`);
  const list = await camelRows<UsageRecord>(
    ex,
    sql`SELECT h.flow_id, h.flow_title AS title, h.initiator_name, h.reserved_at, h.state, h.settled_at, h.account_package_id,
          ap.name AS package_name, ap.name_en AS package_name_en
        ${from} WHERE ${where}
        ORDER BY h.reserved_at DESC, h.flow_id LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  return { list, total: Number(total?.n ?? 0) };
}

// ---------------------------------------------------------------------------------------------------------
// The quota: signing_quotas (the starter allowance's counters), account_packages' counters, quota_holds

export async function ensureQuotaRow(ex: Exec, a: Account): Promise<void> {
  await ex.execute(
    sql`INSERT INTO signing_quotas (owner_type, owner_id) VALUES (${a.ownerType}, ${a.ownerId}) ON CONFLICT DO NOTHING`,
  );
}

/** Locks the account's signing_quotas row until the transaction ends (one reservation at a time). */
export async function lockQuotaRow(ex: Exec, a: Account): Promise<void> {
  await ex.execute(
    sql`SELECT owner_id FROM signing_quotas WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId} FOR UPDATE`,
  );
}

export async function starterCounters(ex: Exec, a: Account) {
  return one<{ extra: number; reserved: number; used: number }>(
    ex,
    sql`SELECT extra, reserved, used FROM signing_quotas WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}`,
  );
}

/** The packages' part of the quota: live quantities, plus what expired or refunded ones reserved or used. */
export async function packageTotals(ex: Exec, a: Account, now: Date) {
  return one<{ total: number; reserved: number; used: number }>(
    ex,
    sql`SELECT
          COALESCE(SUM(CASE WHEN status = 'active' AND expires_at > ${ts(now)} THEN quantity ELSE reserved + used END), 0)::int AS total,
          COALESCE(SUM(reserved), 0)::int AS reserved,
          COALESCE(SUM(used), 0)::int AS used
        FROM account_packages WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}`,
  );
}

/** Reserves one unit of the live package that expires first; its id, or undefined when none has one left. */
export async function reservePackageUnit(ex: Exec, a: Account, now: Date): Promise<string | undefined> {
  const at = ts(now);
  const pkg = await one<{ id: string }>(
    ex,
    sql`UPDATE account_packages SET reserved = reserved + 1
        WHERE id = (
          SELECT id FROM account_packages
          WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId} AND status = 'active'
            AND expires_at > ${at} AND reserved + used < quantity
          ORDER BY expires_at, created_at, id LIMIT 1)
          AND status = 'active' AND expires_at > ${at} AND reserved + used < quantity
        RETURNING id`,
  );
  return pkg?.id;
}

/** Reserves one unit of the starter allowance; false when it is used up. */
export async function reserveStarterUnit(ex: Exec, a: Account, allowance: number): Promise<boolean> {
  const starter = await one<{ reserved: number }>(
    ex,
    sql`UPDATE signing_quotas SET reserved = reserved + 1
        WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}
          AND reserved + used < ${allowance} + extra
        RETURNING reserved`,
  );
  return starter !== undefined;
}

/** What the usage detail shows of the flow a unit is held for (the flow module passes it at launch). */
export type HeldFlow = { id: string; title: string; initiatorName: string | null };

export async function insertHold(
  ex: Exec,
  h: { flow: HeldFlow; account: Account; packageId: string | null; now: Date },
): Promise<void> {
  await ex.execute(
    sql`INSERT INTO quota_holds (flow_id, owner_type, owner_id, account_package_id, state, reserved_at, flow_title,
          initiator_name)
        VALUES (${h.flow.id}, ${h.account.ownerType}, ${h.account.ownerId}, ${h.packageId}, 'reserved', ${ts(h.now)},
          ${h.flow.title}, ${h.flow.initiatorName})`,
  );
}

/** Moves a flow's hold from 'reserved' (once): the bucket it came from, or 'none' when nothing was reserved. */
export async function settleHold(
  ex: Exec,
  flowId: string,
  to: 'used' | 'released',
  at: Date,
): Promise<{ packageId: string | null } | 'none'> {
  const held = await rows<{ account_package_id: string | null }>(
    ex,
    sql`UPDATE quota_holds SET state = ${to}, settled_at = ${ts(at)}
        WHERE flow_id = ${flowId} AND state = 'reserved' RETURNING account_package_id`,
  );
  return held.length === 0 ? 'none' : { packageId: held[0].account_package_id };
}

export async function hasHold(ex: Exec, flowId: string): Promise<boolean> {
  return (
    (await one<{ state: string }>(ex, sql`SELECT state FROM quota_holds WHERE flow_id = ${flowId}`)) !==
    undefined
  );
}

export async function settlePackageUnit(ex: Exec, packageId: string, usedDelta: number): Promise<void> {
  await ex.execute(sql`UPDATE account_packages SET reserved = reserved - 1, used = used + ${usedDelta}
    WHERE id = ${packageId} AND reserved > 0`);
}

export async function settleStarterUnit(ex: Exec, a: Account, usedDelta: number): Promise<void> {
  await ex.execute(sql`UPDATE signing_quotas SET reserved = reserved - 1, used = used + ${usedDelta}
    WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId} AND reserved > 0`);
}

/** The sale product types of the account's live packages. */
export async function liveSaleTypes(ex: Exec, a: Account, now: Date): Promise<string[]> {
  const list = await rows<{ t: string }>(
    ex,
    sql`SELECT DISTINCT sale_product_type AS t FROM account_packages
        WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId} AND status = 'active'
          AND expires_at > ${ts(now)} ORDER BY t`,
  );
  return list.map((r) => r.t);
}

// ---------------------------------------------------------------------------------------------------------
// Orders: creation, payment, cancellation, refund

export async function insertOrder(
  ex: Exec,
  o: {
    id: string;
    orderNo: string;
    kind: string;
    account: Account;
    buyerUserId: string;
    buyerName: string | null;
    pkg: {
      id: string;
      name: string;
      nameEn: string;
      saleProductType: string;
      signings: number;
      validityDays: number;
    };
    copies: number;
    totalQuantity: number;
    unitPriceFen: number;
    provider: string;
    now: Date;
    payBy: Date;
  },
): Promise<void> {
  await ex.execute(sql`INSERT INTO package_orders (id, order_no, kind, buyer_type, buyer_id, buyer_user_id,
      buyer_name, package_id, package_name, package_name_en, sale_product_type, signings_per_copy, copies,
      total_quantity, unit_price_fen, amount_fen, validity_days, status, provider, created_at, pay_by)
    VALUES (${o.id}, ${o.orderNo}, ${o.kind}, ${o.account.ownerType}, ${o.account.ownerId}, ${o.buyerUserId},
      ${o.buyerName}, ${o.pkg.id}, ${o.pkg.name}, ${o.pkg.nameEn}, ${o.pkg.saleProductType}, ${o.pkg.signings},
      ${o.copies}, ${o.totalQuantity}, ${o.unitPriceFen}, ${o.unitPriceFen * o.copies}, ${o.pkg.validityDays},
      'awaiting_payment', ${o.provider}, ${ts(o.now)}, ${ts(o.payBy)})`);
}

export async function insertAllocation(ex: Exec, orderId: string, companyId: string, quantity: number) {
  await ex.execute(sql`INSERT INTO package_order_allocations (order_id, company_id, quantity)
    VALUES (${orderId}, ${companyId}, ${quantity})`);
}

export async function findOrderById(ex: Exec, id: string): Promise<OrderRecord | undefined> {
  return camelOne<OrderRecord>(ex, sql`SELECT * FROM package_orders WHERE id = ${id}`);
}

/** Cancels an order only while it awaits payment; the row, or undefined. */
export async function cancelUnpaidOrder(ex: Exec, id: string, reason: string | null, now: Date) {
  return camelOne<OrderRecord>(
    ex,
    sql`UPDATE package_orders SET status = 'cancelled', ended_at = ${ts(now)}, end_reason = ${reason}
        WHERE id = ${id} AND status = 'awaiting_payment' RETURNING *`,
  );
}

/** An order awaiting payment becomes paid (once); the row, or undefined. */
export async function markOrderPaidRow(
  ex: Exec,
  id: string,
  p: { now: Date; validUntil: Date; adminUserId: string | null; reference: string | null },
) {
  return camelOne<OrderRecord>(
    ex,
    sql`UPDATE package_orders SET status = 'paid', paid_at = ${ts(p.now)}, valid_until = ${ts(p.validUntil)},
          confirmed_by = ${p.adminUserId}, payment_reference = ${p.reference}
        WHERE id = ${id} AND status = 'awaiting_payment' RETURNING *`,
  );
}

/** A paid order becomes refunded (once); the row, or undefined. */
export async function markOrderRefunded(ex: Exec, id: string, reason: string | null, now: Date) {
  return camelOne<OrderRecord>(
    ex,
    sql`UPDATE package_orders SET status = 'refunded', ended_at = ${ts(now)}, end_reason = ${reason}
        WHERE id = ${id} AND status = 'paid' RETURNING *`,
  );
}

/** The order's packages keep only their reserved + used units. */
export async function refundAccountPackages(ex: Exec, orderId: string): Promise<void> {
  await ex.execute(sql`UPDATE account_packages SET status = 'refunded', quantity = reserved + used
    WHERE order_id = ${orderId}`);
}

export async function insertAccountPackage(
  ex: Exec,
  p: {
    ownerType: number;
    ownerId: string;
    order: Pick<OrderRecord, 'id' | 'packageName' | 'packageNameEn' | 'saleProductType'>;
    source: 'purchase' | 'group';
    quantity: number;
    now: Date;
    validUntil: Date;
  },
) {
  return ex.execute(sql`INSERT INTO account_packages (id, owner_type, owner_id, order_id, source, name, name_en,
      sale_product_type, quantity, starts_at, expires_at, status, created_at)
    VALUES (${randomUUID()}, ${p.ownerType}, ${p.ownerId}, ${p.order.id}, ${p.source}, ${p.order.packageName},
      ${p.order.packageNameEn}, ${p.order.saleProductType}, ${p.quantity}, ${ts(p.now)}, ${ts(p.validUntil)}, 'active',
      ${ts(p.now)})`);
}

// ---------------------------------------------------------------------------------------------------------
// Online payment: provider notifications (applied once each), trade and refund numbers; the catalogue

export async function isNotificationSeen(ex: Exec, provider: string, notifyId: string): Promise<boolean> {
  const seen = await one<{ outcome: string }>(
    ex,
    sql`SELECT outcome FROM payment_notifications WHERE provider = ${provider} AND notify_id = ${notifyId}`,
  );
  return seen !== undefined;
}

export async function insertNotification(
  ex: Exec,
  n: {
    provider: string;
    notifyId: string;
    orderNo: string;
    tradeNo: string;
    amountFen: number;
    outcome: string;
    now: Date;
  },
): Promise<void> {
  await ex.execute(sql`INSERT INTO payment_notifications (provider, notify_id, order_no, trade_no,
      amount_fen, outcome, received_at)
    VALUES (${n.provider}, ${n.notifyId}, ${n.orderNo}, ${n.tradeNo}, ${n.amountFen},
      ${n.outcome}, ${ts(n.now)})
    ON CONFLICT (provider, notify_id) DO NOTHING`);
}

export async function setProviderTradeNo(ex: Exec, orderId: string, tradeNo: string): Promise<void> {
  await ex.execute(sql`UPDATE package_orders SET provider_trade_no = ${tradeNo} WHERE id = ${orderId}`);
}

export async function setRefundId(ex: Exec, orderId: string, refundId: string): Promise<void> {
  await ex.execute(sql`UPDATE package_orders SET refund_id = ${refundId} WHERE id = ${orderId}`);
}

export async function countPackages(ex: Exec): Promise<number> {
  return (await one<{ n: number }>(ex, sql`SELECT count(*)::int AS n FROM packages`))?.n ?? 0;
}
