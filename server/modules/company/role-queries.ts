// SQL of company_member_roles and of the company audit trail's general entries (migration 152).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { type Exec, camelRows, ts } from '../../db/sql-helpers.ts';

/** Roles granted beside membership (the administrator is company_members.role). */
export const GRANTED_ROLES = ['handler', 'seal_keeper', 'approver'] as const;
export type GrantedRole = (typeof GRANTED_ROLES)[number];

export async function rolesOf(db: Exec, companyId: string, userId: string): Promise<GrantedRole[]> {
  const rows = await camelRows<{ role: GrantedRole }>(
    db,
    sql`SELECT role FROM company_member_roles WHERE company_id = ${companyId} AND user_id = ${userId}
        ORDER BY role`,
  );
  return rows.map((r) => r.role);
}

/** Every granted role of a company's members, for a member list. */
export async function rolesOfCompany(db: Db, companyId: string): Promise<Map<string, GrantedRole[]>> {
  const rows = await camelRows<{ userId: string; role: GrantedRole }>(
    db,
    sql`SELECT user_id, role FROM company_member_roles WHERE company_id = ${companyId} ORDER BY role`,
  );
  const out = new Map<string, GrantedRole[]>();
  for (const r of rows) out.set(r.userId, [...(out.get(r.userId) ?? []), r.role]);
  return out;
}

/** Adds the role (nothing when held); true when it was added. */
export async function grantRole(
  ex: Exec,
  v: { companyId: string; userId: string; role: GrantedRole; by: string | null; now: Date },
): Promise<boolean> {
  const rows = await camelRows<{ role: string }>(
    ex,
    sql`INSERT INTO company_member_roles (company_id, user_id, role, granted_by, granted_at)
        VALUES (${v.companyId}, ${v.userId}, ${v.role}, ${v.by}, ${ts(v.now)})
        ON CONFLICT DO NOTHING RETURNING role`,
  );
  return rows.length > 0;
}

/** Removes the role; true when it was held. */
export async function revokeRole(
  ex: Exec,
  v: { companyId: string; userId: string; role: GrantedRole },
): Promise<boolean> {
  const rows = await camelRows<{ role: string }>(
    ex,
    sql`DELETE FROM company_member_roles
        WHERE company_id = ${v.companyId} AND user_id = ${v.userId} AND role = ${v.role} RETURNING role`,
  );
  return rows.length > 0;
}

/** One entry of the company's audit trail (only ever added to). */
export async function insertCompanyEvent(
  ex: Exec,
  e: {
    companyId: string;
    kind: string;
    actorUserId: string | null;
    subjectUserId: string | null;
    detail: Record<string, unknown> | null;
    now: Date;
  },
): Promise<void> {
  await ex.execute(
    sql`INSERT INTO company_events (company_id, kind, actor_user_id, subject_user_id, detail, created_at)
        VALUES (${e.companyId}, ${e.kind}, ${e.actorUserId}, ${e.subjectUserId},
          ${e.detail === null ? null : JSON.stringify(e.detail)}::jsonb, ${ts(e.now)})`,
  );
}
