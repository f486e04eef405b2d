import type { Account } from '../../lib/account.ts';
import type { AppDeps } from '../../deps.ts';
import type { Exec } from '../../db/sql-helpers.ts';
import * as q from './queries.ts';

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

type Quota = { total: number; reserved: number; used: number; remaining: number };
type QuotaDetail = Quota & { starter: { total: number; reserved: number; used: number } };

/**
 * The account's quota: total = starter allowance + live packages' quantities + what expired or refunded
 * packages had reserved or used (so that total - reserved - used is exactly what can still be launched).
 */
export async function quotaDetailOf(
  deps: Pick<AppDeps, 'db' | 'config' | 'clock'>,
  a: Account,
): Promise<QuotaDetail> {
  const s = await q.starterCounters(deps.db, a);
  const sReserved = s?.reserved ?? 0;
  const sUsed = s?.used ?? 0;
  // A lowered allowance never makes the starter bucket show less than it has already handed out.
  const sTotal = Math.max(deps.config.freeSigningAllowance + (s?.extra ?? 0), sReserved + sUsed);
  const p = await q.packageTotals(deps.db, a, deps.clock.now());
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
 * Reserves one unit for `flow` (inside the launch transaction `ex`); false when none is left. The flow
 * row may follow in the same transaction (quota_holds refers to it with a deferred constraint). The flow's
 * title and initiator are kept with the hold for the usage detail (package never reads the flows table).
 */
export async function reserveUnit(
  ex: Exec,
  deps: Pick<AppDeps, 'config' | 'clock'>,
  a: Account,
  flow: q.HeldFlow,
): Promise<boolean> {
  const now = deps.clock.now();
  await q.ensureQuotaRow(ex, a);
  // One reservation of this account at a time: held until the launch transaction ends.
  await q.lockQuotaRow(ex, a);
  // The live package that expires first, else the starter allowance.
  const packageId = (await q.reservePackageUnit(ex, a, now)) ?? null;
  if (!packageId && !(await q.reserveStarterUnit(ex, a, deps.config.freeSigningAllowance))) return false;
  await q.insertHold(ex, { flow, account: a, packageId, now });
  return true;
}

/**
 * Settles the reserved unit of a flow: 'used' (completion) or 'released' (cancel, decline, expiry). Only
 * the first settlement counts (the hold moves from 'reserved' once). Flows launched before holds existed
 * settle against the starter allowance, as they were reserved there.
 */
async function settleUnit(ex: Exec, a: Account, flowId: string, to: 'used' | 'released', at: Date) {
  const held = await q.settleHold(ex, flowId, to, at);
  if (held === 'none') {
    if (await q.hasHold(ex, flowId)) return; // settled before
  }
  const packageId = held === 'none' ? null : held.packageId;
  const usedDelta = to === 'used' ? 1 : 0;
  if (packageId) await q.settlePackageUnit(ex, packageId, usedDelta);
  else await q.settleStarterUnit(ex, a, usedDelta);
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
  const quota = await quotaOf(deps, accountOfSession(session));
  return {
    totalQuantitySum: quota.total,
    totalReserveQuantity: quota.reserved,
    totalUseQuantity: quota.used,
    remainQuantity: quota.remaining,
  };
}

/** salePackageProductTypeList (SPEC §3): the sale product types of the account's live packages. */
export async function salePackageProductTypes(
  deps: AppDeps,
  session: { userId: string; userType: number; companyId: string | null },
): Promise<string[]> {
  return q.liveSaleTypes(deps.db, accountOfSession(session), deps.clock.now());
}
