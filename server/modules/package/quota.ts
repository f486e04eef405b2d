import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { type Exec, one, rows, ts } from '../../db/sql-helpers.ts';

// The signing quota of an account (person or company), in buckets:
//   - the starter allowance: FREE_SIGNING_ALLOWANCE (+ signing_quotas.extra), never expires; its counters
//     are the reserved/used columns of signing_quotas;
//   - every package the account owns (account_packages): quantity, reserved, used, valid until expires_at.
// Launching reserves ONE unit from the live package that expires first (so bought units are not left to
// lapse), the starter allowance last; quota_holds remembers the bucket of each flow, so completion uses
// and cancellation/decline/expiry release the unit of THAT bucket. An expired or refunded package takes no
// new reservations and its unreserved units lapse; units it had already reserved stay honoured.
// Concurrency: the reservation runs in the launch transaction, first locking the account's signing_quotas
// row (FOR UPDATE) so that reservations of one account run one at a time, then a conditional UPDATE
// (reserved + used < quantity) on the chosen bucket. Counters never go negative (CHECK constraints and
// `reserved > 0` guards) and never exceed the bucket.

export type Account = { ownerType: 0 | 1; ownerId: string };
export type Quota = { total: number; reserved: number; used: number; remaining: number };
export type QuotaDetail = Quota & { starter: { total: number; reserved: number; used: number } };

async function ensureRow(ex: Exec, a: Account): Promise<void> {
  await ex.execute(
    sql`INSERT INTO signing_quotas (owner_type, owner_id) VALUES (${a.ownerType}, ${a.ownerId}) ON CONFLICT DO NOTHING`,
  );
}

/**
 * The account's quota: total = starter allowance + live packages' quantities + what expired or refunded
 * packages had reserved or used (so that total - reserved - used is exactly what can still be launched).
 */
export async function quotaDetailOf(
  deps: Pick<AppDeps, 'db' | 'config' | 'clock'>,
  a: Account,
): Promise<QuotaDetail> {
  const now = ts(deps.clock.now());
  const s = await one<{ extra: number; reserved: number; used: number }>(
    deps.db,
    sql`SELECT extra, reserved, used FROM signing_quotas WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}`,
  );
  const sReserved = s?.reserved ?? 0;
  const sUsed = s?.used ?? 0;
  // A lowered allowance never makes the starter bucket show less than it has already handed out.
  const sTotal = Math.max(deps.config.freeSigningAllowance + (s?.extra ?? 0), sReserved + sUsed);
  const p = await one<{ total: number; reserved: number; used: number }>(
    deps.db,
    sql`SELECT
          COALESCE(SUM(CASE WHEN status = 'active' AND expires_at > ${now} THEN quantity ELSE reserved + used END), 0)::int AS total,
          COALESCE(SUM(reserved), 0)::int AS reserved,
          COALESCE(SUM(used), 0)::int AS used
        FROM account_packages WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}`,
  );
  const total = sTotal + Number(p?.total ?? 0);
  const reserved = sReserved + Number(p?.reserved ?? 0);
  const used = sUsed + Number(p?.used ?? 0);
  return {
    total,
    reserved,
    used,
    remaining: Math.max(0, total - reserved - used),
    starter: { total: sTotal, reserved: sReserved, used: sUsed },
  };
}

/** The account's quota as the login info and getQuota show it. */
export async function quotaOf(deps: Pick<AppDeps, 'db' | 'config' | 'clock'>, a: Account): Promise<Quota> {
  const { total, reserved, used, remaining } = await quotaDetailOf(deps, a);
  return { total, reserved, used, remaining };
}

/**
 * Reserves one unit for `flowId` (inside the launch transaction `ex`); false when none is left. The flow
 * row may follow in the same transaction (quota_holds refers to it with a deferred constraint).
 */
export async function reserveUnit(
  ex: Exec,
  deps: Pick<AppDeps, 'config' | 'clock'>,
  a: Account,
  flowId: string,
): Promise<boolean> {
  const now = ts(deps.clock.now());
  await ensureRow(ex, a);
  // One reservation of this account at a time: held until the launch transaction ends.
  await ex.execute(
    sql`SELECT owner_id FROM signing_quotas WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId} FOR UPDATE`,
  );
  const pkg = await one<{ id: string }>(
    ex,
    sql`UPDATE account_packages SET reserved = reserved + 1
        WHERE id = (
          SELECT id FROM account_packages
          WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId} AND status = 'active'
            AND expires_at > ${now} AND reserved + used < quantity
          ORDER BY expires_at, created_at, id LIMIT 1)
          AND status = 'active' AND expires_at > ${now} AND reserved + used < quantity
        RETURNING id`,
  );
  let packageId: string | null = null;
  if (pkg) packageId = pkg.id;
  else {
    const starter = await one<{ reserved: number }>(
      ex,
      sql`UPDATE signing_quotas SET reserved = reserved + 1
          WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}
            AND reserved + used < ${deps.config.freeSigningAllowance} + extra
          RETURNING reserved`,
    );
    if (!starter) return false;
  }
  await ex.execute(
    sql`INSERT INTO quota_holds (flow_id, owner_type, owner_id, account_package_id, state, reserved_at)
        VALUES (${flowId}, ${a.ownerType}, ${a.ownerId}, ${packageId}, 'reserved', ${now})`,
  );
  return true;
}

/**
 * Settles the reserved unit of a flow: 'used' (completion) or 'released' (cancel, decline, expiry). Only
 * the first settlement counts (the hold moves from 'reserved' once). Flows launched before holds existed
 * settle against the starter allowance, as they were reserved there.
 */
async function settleUnit(ex: Exec, a: Account, flowId: string, to: 'used' | 'released', at: Date) {
  const held = await rows<{ account_package_id: string | null }>(
    ex,
    sql`UPDATE quota_holds SET state = ${to}, settled_at = ${ts(at)}
        WHERE flow_id = ${flowId} AND state = 'reserved' RETURNING account_package_id`,
  );
  if (held.length === 0) {
    const hasHold = await one<{ state: string }>(
      ex,
      sql`SELECT state FROM quota_holds WHERE flow_id = ${flowId}`,
    );
    if (hasHold) return; // settled before
  }
  const packageId = held[0]?.account_package_id ?? null;
  const usedDelta = to === 'used' ? 1 : 0;
  if (packageId)
    await ex.execute(sql`UPDATE account_packages SET reserved = reserved - 1, used = used + ${usedDelta}
      WHERE id = ${packageId} AND reserved > 0`);
  else
    await ex.execute(sql`UPDATE signing_quotas SET reserved = reserved - 1, used = used + ${usedDelta}
      WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId} AND reserved > 0`);
}

/** A reserved unit becomes used (completion). */
export async function consumeUnit(ex: Exec, a: Account, flowId: string, at: Date): Promise<void> {
  await settleUnit(ex, a, flowId, 'used', at);
}

/** A reserved unit goes back (cancel, decline, expiry); from an expired package it lapses. */
export async function releaseUnit(ex: Exec, a: Account, flowId: string, at: Date): Promise<void> {
  await settleUnit(ex, a, flowId, 'released', at);
}

/** The account of a session: a person's own; the session company's for userType 1. */
export const accountOfSession = (session: {
  userId: string;
  userType: number;
  companyId: string | null;
}): Account =>
  session.userType === 1 && session.companyId
    ? { ownerType: 1, ownerId: session.companyId }
    : { ownerType: 0, ownerId: session.userId };

/**
 * The quantity fields of the login info (SPEC §3) for a session: remainQuantity = totalQuantitySum -
 * totalReserveQuantity - totalUseQuantity, never negative.
 */
export async function quotaLoginFields(
  deps: AppDeps,
  session: { userId: string; userType: number; companyId: string | null },
): Promise<{
  totalQuantitySum: number;
  totalReserveQuantity: number;
  totalUseQuantity: number;
  remainQuantity: number;
}> {
  const q = await quotaOf(deps, accountOfSession(session));
  return {
    totalQuantitySum: q.total,
    totalReserveQuantity: q.reserved,
    totalUseQuantity: q.used,
    remainQuantity: q.remaining,
  };
}

/** salePackageProductTypeList (SPEC §3): the sale product types of the account's live packages. */
export async function salePackageProductTypes(
  deps: AppDeps,
  session: { userId: string; userType: number; companyId: string | null },
): Promise<string[]> {
  const a = accountOfSession(session);
  const list = await rows<{ t: string }>(
    deps.db,
    sql`SELECT DISTINCT sale_product_type AS t FROM account_packages
        WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId} AND status = 'active'
          AND expires_at > ${ts(deps.clock.now())} ORDER BY t`,
  );
  return list.map((r) => r.t);
}
