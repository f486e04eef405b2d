import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { type Exec, one } from './sql.ts';

// The signing quota of an account (person or company): the free allowance of the configuration
// (FREE_SIGNING_ALLOWANCE) plus `extra` units from packages (later). Launching reserves one unit,
// completion turns it into a used one, cancellation, decline and expiry release it. Every change is one
// conditional UPDATE, so parallel launches can never take more units than remain.

export type Account = { ownerType: 0 | 1; ownerId: string };
export type Quota = { total: number; reserved: number; used: number; remaining: number };

async function ensureRow(ex: Exec, a: Account): Promise<void> {
  await ex.execute(
    sql`INSERT INTO signing_quotas (owner_type, owner_id) VALUES (${a.ownerType}, ${a.ownerId}) ON CONFLICT DO NOTHING`,
  );
}

/** The account's quota as the login info and getQuota show it. */
export async function quotaOf(deps: AppDeps, a: Account): Promise<Quota> {
  const allowance = deps.config.freeSigningAllowance;
  const r = await one<{ extra: number; reserved: number; used: number }>(
    deps.db,
    sql`SELECT extra, reserved, used FROM signing_quotas WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}`,
  );
  const total = allowance + (r?.extra ?? 0);
  const reserved = r?.reserved ?? 0;
  const used = r?.used ?? 0;
  return { total, reserved, used, remaining: Math.max(0, total - reserved - used) };
}

/** Reserves one unit; false when none is left. Atomic: the check and the increment are one statement. */
export async function reserveUnit(ex: Exec, allowance: number, a: Account): Promise<boolean> {
  await ensureRow(ex, a);
  const r = await one<{ reserved: number }>(
    ex,
    sql`UPDATE signing_quotas SET reserved = reserved + 1
        WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId}
          AND reserved + used < ${allowance} + extra
        RETURNING reserved`,
  );
  return r !== undefined;
}

/** A reserved unit becomes used (completion). */
export async function consumeUnit(ex: Exec, a: Account): Promise<void> {
  await ex.execute(sql`UPDATE signing_quotas SET reserved = reserved - 1, used = used + 1
    WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId} AND reserved > 0`);
}

/** A reserved unit goes back (cancel, decline, expiry). */
export async function releaseUnit(ex: Exec, a: Account): Promise<void> {
  await ex.execute(sql`UPDATE signing_quotas SET reserved = reserved - 1
    WHERE owner_type = ${a.ownerType} AND owner_id = ${a.ownerId} AND reserved > 0`);
}

/**
 * The quantity fields of the login info (SPEC §3) for a session: its account's quota (a person's own; the
 * session company's for userType 1).
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
  const account: Account =
    session.userType === 1 && session.companyId
      ? { ownerType: 1, ownerId: session.companyId }
      : { ownerType: 0, ownerId: session.userId };
  const q = await quotaOf(deps, account);
  return {
    totalQuantitySum: q.total,
    totalReserveQuantity: q.reserved,
    totalUseQuantity: q.used,
    remainQuantity: q.remaining,
  };
}
