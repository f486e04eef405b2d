import { type SQL, sql } from 'drizzle-orm';
import { type Exec, one, rows, ts } from '../../db/sql-helpers.ts';
import type { Account } from './quota.ts';

// SQL of the package module. Every query reading an account's data takes that account as an argument.

export type PackageRow = {
  id: string;
  name: string;
  name_en: string;
  description: string;
  sale_product_type: string;
  signings: number;
  price_fen: number;
  validity_days: number;
  tiers: unknown;
  is_active: boolean;
  created_at: unknown;
  updated_at: unknown;
};

export type OrderRow = {
  id: string;
  order_no: string;
  kind: 'single' | 'group';
  buyer_type: number;
  buyer_id: string;
  buyer_user_id: string;
  buyer_name: string;
  package_id: string;
  package_name: string;
  package_name_en: string;
  sale_product_type: string;
  signings_per_copy: number;
  copies: number;
  total_quantity: number;
  unit_price_fen: number;
  amount_fen: number;
  validity_days: number;
  status: string;
  provider: string;
  created_at: unknown;
  pay_by: unknown;
  paid_at: unknown;
  valid_until: unknown;
  confirmed_by: string | null;
  payment_reference: string | null;
  ended_at: unknown;
  end_reason: string | null;
  provider_trade_no: string | null;
  refund_id: string | null;
};

export type AllocationRow = {
  order_id: string;
  company_id: string;
  quantity: number;
  company_name: string;
  credit_code: string;
};

export type GrantRow = {
  id: string;
  owner_type: number;
  owner_id: string;
  order_id: string;
  source: 'purchase' | 'group';
  name: string;
  name_en: string;
  sale_product_type: string;
  quantity: number;
  reserved: number;
  used: number;
  starts_at: unknown;
  expires_at: unknown;
  status: 'active' | 'refunded';
  order_no: string;
  buyer_name: string;
};

export type UsageDbRow = {
  flow_id: string;
  title: string;
  initiator_name: string | null;
  reserved_at: unknown;
  state: 'reserved' | 'used' | 'released';
  settled_at: unknown;
  account_package_id: string | null;
  package_name: string | null;
  package_name_en: string | null;
};

// ---- packages

export const findPackage = (ex: Exec, id: string) =>
  one<PackageRow>(ex, sql`SELECT * FROM packages WHERE id = ${id}`);

export const listPackages = (ex: Exec, opts: { activeOnly: boolean; saleProductType?: string }) =>
  rows<PackageRow>(
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
  saleProductType: string;
  signings: number;
  priceFen: number;
  validityDays: number;
  tiers: { minCopies: number; priceFen: number }[];
  isActive: boolean;
};

export async function insertPackage(ex: Exec, id: string, f: PackageFields, now: Date): Promise<void> {
  await ex.execute(sql`INSERT INTO packages (id, name, name_en, description, sale_product_type, signings, price_fen,
      validity_days, tiers, is_active, created_at, updated_at)
    VALUES (${id}, ${f.name}, ${f.nameEn}, ${f.description}, ${f.saleProductType}, ${f.signings}, ${f.priceFen},
      ${f.validityDays}, ${JSON.stringify(f.tiers)}::jsonb, ${f.isActive}, ${ts(now)}, ${ts(now)})`);
}

export async function updatePackage(ex: Exec, id: string, f: PackageFields, now: Date): Promise<boolean> {
  const r = await rows(
    ex,
    sql`UPDATE packages SET name = ${f.name}, name_en = ${f.nameEn}, description = ${f.description},
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
  one<OrderRow>(
    ex,
    sql`SELECT * FROM package_orders WHERE order_no = ${orderNo} ${forUpdate ? sql`FOR UPDATE` : sql``}`,
  );

export const findOwnOrder = (ex: Exec, a: Account, orderNo: string) =>
  one<OrderRow>(
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
): Promise<{ list: OrderRow[]; total: number }> {
  const where = orderWhere(f);
  const total = await one<{ n: number }>(
    ex,
    sql`SELECT count(*)::int AS n FROM package_orders WHERE ${where}`,
  );
  const list = await rows<OrderRow>(
    ex,
    sql`SELECT * FROM package_orders WHERE ${where} ORDER BY created_at DESC, order_no LIMIT ${f.limit} OFFSET ${f.offset}`,
  );
  return { list, total: Number(total?.n ?? 0) };
}

export async function allocationsOf(ex: Exec, orderIds: string[]): Promise<AllocationRow[]> {
  if (orderIds.length === 0) return [];
  return rows<AllocationRow>(
    ex,
    sql`SELECT a.order_id, a.company_id, a.quantity, c.name AS company_name, c.credit_code
        FROM package_order_allocations a JOIN companies c ON c.id = a.company_id
        WHERE a.order_id IN (${sql.join(
          orderIds.map((id) => sql`${id}`),
          sql`, `,
        )}) ORDER BY c.name`,
  );
}

/** Verified companies by credit code (the receivers of a group purchase). */
export const verifiedCompanyByCreditCode = (ex: Exec, creditCode: string) =>
  one<{ id: string; name: string; credit_code: string }>(
    ex,
    sql`SELECT id, name, credit_code FROM companies WHERE credit_code = ${creditCode} AND status = 'verified'
        ORDER BY verified_at LIMIT 1`,
  );

// ---- the account's packages and usage

export const grantsOf = (ex: Exec, a: Account) =>
  rows<GrantRow>(
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

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function usageWhere(a: Account, f: UsageFilters): SQL {
  const conds: SQL[] = [sql`h.owner_type = ${a.ownerType} AND h.owner_id = ${a.ownerId}`];
  if (f.state) conds.push(sql`h.state = ${f.state}`);
  if (f.packageId === 'starter') conds.push(sql`h.account_package_id IS NULL`);
  else if (f.packageId) conds.push(sql`h.account_package_id = ${f.packageId}`);
  if (f.dateFrom) conds.push(sql`h.reserved_at >= ${f.dateFrom}`);
  if (f.dateTo) conds.push(sql`h.reserved_at <= ${f.dateTo}`);
  if (f.keyword?.trim())
    conds.push(sql`lower(f.title) LIKE ${`%${escapeLike(f.keyword.trim().toLowerCase())}%`}`);
  return sql.join(conds, sql` AND `);
}

export async function usageOf(
  ex: Exec,
  a: Account,
  f: UsageFilters,
  page: { limit: number; offset: number },
): Promise<{ list: UsageDbRow[]; total: number }> {
  const where = usageWhere(a, f);
  const from = sql`FROM quota_holds h JOIN flows f ON f.id = h.flow_id
    LEFT JOIN account_packages ap ON ap.id = h.account_package_id`;
  const total = await one<{ n: number }>(ex, sql`SELECT count(*)::int AS n ${from} WHERE ${where}`);
  const list = await rows<UsageDbRow>(
    ex,
    sql`SELECT h.flow_id, f.title, f.initiator_name, h.reserved_at, h.state, h.settled_at, h.account_package_id,
          ap.name AS package_name, ap.name_en AS package_name_en
        ${from} WHERE ${where}
        ORDER BY h.reserved_at DESC, h.flow_id LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  return { list, total: Number(total?.n ?? 0) };
}
