import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { CompanyEvent } from '#contract/calls/company.ts';
import { type Exec, camelOne, camelRows, dateOf, one, ts } from '../../db/sql-helpers.ts';

// SQL of operator invitations and the company audit trail (migration 149). Reads of a company's rows take
// the company the caller administers; reads of an invitee's rows take the caller's own phone.

export type InvitationState = 'pending' | 'accepted' | 'declined' | 'withdrawn';

export type InvitationRow = {
  id: string;
  companyId: string;
  companyName: string;
  phone: string;
  role: 'operator';
  status: InvitationState;
  invitedBy: string;
  answeredBy: string | null;
  sentCount: number;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
};

const SELECT = sql`SELECT i.*, c.name AS company_name FROM company_invitations i JOIN companies c ON c.id = i.company_id`;

const fix = (r: InvitationRow | undefined): InvitationRow | undefined =>
  r && {
    ...r,
    sentCount: Number(r.sentCount),
    expiresAt: dateOf(r.expiresAt),
    createdAt: dateOf(r.createdAt),
    updatedAt: dateOf(r.updatedAt),
  };

/** The pending invitation of a company for a phone (at most one: a partial unique index). */
export async function pendingInvitation(db: Db, companyId: string, phone: string) {
  return fix(
    await camelOne<InvitationRow>(
      db,
      sql`${SELECT} WHERE i.company_id = ${companyId} AND i.phone = ${phone} AND i.status = 'pending'`,
    ),
  );
}

/** A new pending invitation; undefined when a concurrent one for the same phone won the unique index. */
export async function insertInvitation(
  db: Db,
  v: { companyId: string; phone: string; invitedBy: string; expiresAt: Date; now: Date },
): Promise<string | undefined> {
  const row = await one<{ id: string }>(
    db,
    sql`INSERT INTO company_invitations (company_id, phone, role, status, invited_by, expires_at, created_at, updated_at)
        VALUES (${v.companyId}, ${v.phone}, 'operator', 'pending', ${v.invitedBy}, ${ts(v.expiresAt)}, ${ts(v.now)}, ${ts(v.now)})
        ON CONFLICT (company_id, phone) WHERE status = 'pending' DO NOTHING
        RETURNING id`,
  );
  return row?.id;
}

/** An invitation of the company (administrator's view); another company's id finds nothing. */
export async function invitationOfCompany(db: Db, companyId: string, id: string) {
  return fix(
    await camelOne<InvitationRow>(db, sql`${SELECT} WHERE i.company_id = ${companyId} AND i.id = ${id}`),
  );
}

/** An invitation addressed to this phone (invitee's view); one to another phone finds nothing. */
export async function invitationForPhone(db: Db, phone: string, id: string) {
  return fix(await camelOne<InvitationRow>(db, sql`${SELECT} WHERE i.phone = ${phone} AND i.id = ${id}`));
}

export async function invitationsForPhone(db: Db, phone: string) {
  const list = await camelRows<InvitationRow>(
    db,
    sql`${SELECT} WHERE i.phone = ${phone} ORDER BY i.created_at DESC, i.id LIMIT 50`,
  );
  return list.map((r) => fix(r)!);
}

/** SQL of the status a reader sees: 'expired' for a pending one past its lifetime. */
const shownStatus = (now: Date) =>
  sql`CASE WHEN i.status = 'pending' AND i.expires_at <= ${ts(now)} THEN 'expired' ELSE i.status END`;

export async function invitationPage(
  db: Db,
  companyId: string,
  f: { status?: string; pageNum: number; pageSize: number; now: Date },
) {
  const where = f.status
    ? sql`i.company_id = ${companyId} AND ${shownStatus(f.now)} = ${f.status}`
    : sql`i.company_id = ${companyId}`;
  const total =
    (await one<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM company_invitations i WHERE ${where}`))
      ?.n ?? 0;
  const list = await camelRows<InvitationRow>(
    db,
    sql`${SELECT} WHERE ${where} ORDER BY i.created_at DESC, i.id
        LIMIT ${f.pageSize} OFFSET ${(f.pageNum - 1) * f.pageSize}`,
  );
  return { list: list.map((r) => fix(r)!), total: Number(total) };
}

/**
 * Moves an invitation from one of `from` states to `to` (only while unexpired when `from` is pending and
 * `liveOnly`), in the caller's transaction; false when it was not in such a state (already answered, raced).
 */
export async function setInvitationStatus(
  ex: Exec,
  v: {
    id: string;
    from: readonly InvitationState[];
    to: InvitationState;
    now: Date;
    liveOnly?: boolean;
    answeredBy?: string;
  },
): Promise<boolean> {
  const live = v.liveOnly ? sql` AND expires_at > ${ts(v.now)}` : sql``;
  const row = await one<{ id: string }>(
    ex,
    sql`UPDATE company_invitations SET status = ${v.to}, updated_at = ${ts(v.now)},
          answered_by = coalesce(${v.answeredBy ?? null}::uuid, answered_by)
        WHERE id = ${v.id} AND status IN (${sql.join(
          v.from.map((s) => sql`${s}`),
          sql`, `,
        )})${live}
        RETURNING id`,
  );
  return row !== undefined;
}

/** Sends an invitation again: pending with a fresh lifetime; false when another pending one of the phone exists. */
export async function renewInvitation(db: Db, id: string, expiresAt: Date, now: Date): Promise<boolean> {
  try {
    const row = await one<{ id: string }>(
      db,
      sql`UPDATE company_invitations SET status = 'pending', expires_at = ${ts(expiresAt)}, updated_at = ${ts(now)},
            sent_count = sent_count + 1, answered_by = NULL
          WHERE id = ${id} RETURNING id`,
    );
    return row !== undefined;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

// ---------- company_events ----------

export type CompanyEventKind =
  | 'invitation_sent'
  | 'invitation_resent'
  | 'invitation_withdrawn'
  | 'invitation_accepted'
  | 'invitation_declined'
  | 'invitation_expired';

/** Every kind of the audit trail (the invitation steps above, and the governance kinds of roles.ts and others). */
type TrailKind = CompanyEvent['kind'];

export async function insertEvent(
  ex: Exec,
  e: {
    companyId: string;
    kind: CompanyEventKind;
    actorUserId: string | null;
    phone: string | null;
    invitationId: string | null;
    now: Date;
  },
): Promise<void> {
  await ex.execute(
    sql`INSERT INTO company_events (company_id, kind, actor_user_id, phone, invitation_id, created_at)
        VALUES (${e.companyId}, ${e.kind}, ${e.actorUserId}, ${e.phone}, ${e.invitationId}, ${ts(e.now)})`,
  );
}

export type EventRow = {
  id: string;
  kind: TrailKind;
  actorUserId: string | null;
  subjectUserId: string | null;
  detail: Record<string, unknown> | null;
  phone: string | null;
  invitationId: string | null;
  createdAt: Date;
};

export async function eventPage(db: Db, companyId: string, f: { pageNum: number; pageSize: number }) {
  const total =
    (
      await one<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM company_events WHERE company_id = ${companyId}`,
      )
    )?.n ?? 0;
  const list = await camelRows<EventRow>(
    db,
    sql`SELECT id::text AS id, kind, actor_user_id, subject_user_id, detail, phone, invitation_id, created_at
        FROM company_events
        WHERE company_id = ${companyId} ORDER BY company_events.id DESC
        LIMIT ${f.pageSize} OFFSET ${(f.pageNum - 1) * f.pageSize}`,
  );
  return { list: list.map((r) => ({ ...r, createdAt: dateOf(r.createdAt) })), total: Number(total) };
}

/**
 * Accepts a pending, unexpired invitation for `userId` in one transaction: the invitation becomes accepted,
 * the user an active member with its role (a removed, rejected or pending membership row is reused; an
 * active or disabled one is left alone and the whole is undone), and the step goes into the audit trail.
 * False when the invitation could not be accepted (answered already, withdrawn, expired, or a member).
 */
export async function acceptInvitation(
  db: Db,
  v: { id: string; companyId: string; userId: string; phone: string; now: Date },
): Promise<boolean> {
  class NotAccepted extends Error {}
  try {
    await db.transaction(async (tx) => {
      const moved = await setInvitationStatus(tx, {
        id: v.id,
        from: ['pending'],
        to: 'accepted',
        now: v.now,
        liveOnly: true,
        answeredBy: v.userId,
      });
      if (!moved) throw new NotAccepted();
      const member = await one<{ id: string }>(
        tx,
        sql`INSERT INTO company_members (company_id, user_id, role, status, created_at, updated_at)
            SELECT company_id, ${v.userId}::uuid, role, 'active', ${ts(v.now)}::timestamptz, ${ts(v.now)}::timestamptz
            FROM company_invitations WHERE id = ${v.id}
            ON CONFLICT (company_id, user_id) DO UPDATE
              SET role = excluded.role, status = 'active', created_at = excluded.created_at, updated_at = excluded.updated_at
              WHERE company_members.status NOT IN ('active', 'disabled')
            RETURNING id`,
      );
      if (!member) throw new NotAccepted();
      // An operator launches and signs for the company: the handler role (issue 27) comes with joining.
      await tx.execute(
        sql`INSERT INTO company_member_roles (company_id, user_id, role, granted_by, granted_at)
            SELECT company_id, ${v.userId}::uuid, 'handler', invited_by, ${ts(v.now)}::timestamptz
            FROM company_invitations WHERE id = ${v.id} AND role = 'operator'
            ON CONFLICT DO NOTHING`,
      );
      await insertEvent(tx, {
        companyId: v.companyId,
        kind: 'invitation_accepted',
        actorUserId: v.userId,
        phone: v.phone,
        invitationId: v.id,
        now: v.now,
      });
    });
    return true;
  } catch (err) {
    if (err instanceof NotAccepted) return false;
    throw err;
  }
}

/**
 * Records that an invitation was found expired when answered, once per lifetime (a later "send again"
 * starts a new one): answering an expired invitation again adds nothing.
 */
export async function recordExpiredOnce(
  db: Db,
  v: { id: string; companyId: string; actorUserId: string; phone: string; now: Date },
): Promise<void> {
  await db.execute(
    sql`INSERT INTO company_events (company_id, kind, actor_user_id, phone, invitation_id, created_at)
        SELECT ${v.companyId}::uuid, 'invitation_expired', ${v.actorUserId}::uuid, ${v.phone}::text, i.id,
          ${ts(v.now)}::timestamptz
        FROM company_invitations i
        WHERE i.id = ${v.id} AND NOT EXISTS (
          SELECT 1 FROM company_events e
          WHERE e.invitation_id = i.id AND e.kind = 'invitation_expired' AND e.created_at >= i.updated_at)`,
  );
}
