import type { Actor } from '../../lib/actor.ts';
import type { CompanyEvent, CompanyInvitation } from '#contract/calls/company.ts';
import { INVITATION_LIFETIME_DAYS, companyInvitationPath } from '#contract/calls/company.ts';
import { Code } from '#contract/codes.ts';
import { MemberStatus } from '../../db/schema/company.ts';
import { hitSlidingCounter } from '../../db/rate-counter.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { findUsersByPhoneOrName, usersByIds } from '../session/index.ts';
import { companyNotice } from './hooks.ts';
import * as iq from './invitation-queries.ts';
import { requireCompanyRole } from './membership.ts';
import { maskPhone } from './present.ts';
import * as q from './queries.ts';
import { C } from './texts.ts';

// Operators are invited, not added (issue 6): the administrator invites a phone; the phone's owner is told
// by SMS and in /message and becomes a member only by accepting within INVITATION_LIFETIME_DAYS. Every step
// goes into the company's audit trail (company_events).

const ADMIN = ['admin'] as const;
const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
/** Invitations sent (new or again) per company per hour: each one is an SMS to a phone the company names. */
export const INVITES_MAX_PER_HOUR = 30;

const isExpired = (row: iq.InvitationRow, now: Date) =>
  row.status === 'pending' && row.expiresAt.getTime() <= now.getTime();

async function present(deps: AppDeps, rows: iq.InvitationRow[]): Promise<CompanyInvitation[]> {
  const now = deps.clock.now();
  const inviters = await usersByIds(
    deps.db,
    rows.map((r) => r.invitedBy),
  );
  const registered = new Set<string>();
  for (const phone of new Set(rows.map((r) => r.phone)))
    if ((await findUsersByPhoneOrName(deps.db, { phone })).some((u) => u.status === 'active'))
      registered.add(phone);
  return rows.map((r) => ({
    invitationId: r.id,
    companyId: r.companyId,
    companyName: r.companyName,
    phone: maskPhone(r.phone),
    role: r.role,
    status: isExpired(r, now) ? 'expired' : r.status,
    isRegistered: registered.has(r.phone),
    invitedByName: inviters.get(r.invitedBy)?.name ?? null,
    sentCount: r.sentCount,
    expiresAt: r.expiresAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

const presentOne = async (deps: AppDeps, row: iq.InvitationRow) => (await present(deps, [row]))[0];

async function countInvite(deps: AppDeps, companyId: string) {
  const hits = await hitSlidingCounter(deps.db, `invite:${companyId}`, HOUR_MS, deps.clock.now());
  if (hits > INVITES_MAX_PER_HOUR) throw new AppError(Code.RateLimited, C.invitesTooMany);
}

/** Refused when the phone's account is already an active or disabled member (a disabled one stays so). */
async function refuseMember(deps: AppDeps, companyId: string, phone: string) {
  for (const u of await findUsersByPhoneOrName(deps.db, { phone })) {
    const m = await q.findMembership(deps.db, companyId, u.userId);
    if (m && (m.status === MemberStatus.Active || m.status === MemberStatus.Disabled))
      throw new AppError(Code.Refused, C.alreadyOperator);
  }
}

/** The SMS (through the messenger: the provider's template or the outbox) and the /message notice. */
async function tell(deps: AppDeps, row: iq.InvitationRow) {
  const link = companyInvitationPath(row.id);
  const url = `${deps.config.publicUrl}/#${link}`;
  const isRegistered = (await findUsersByPhoneOrName(deps.db, { phone: row.phone })).some(
    (u) => u.status === 'active',
  );
  const days = INVITATION_LIFETIME_DAYS;
  const register = isRegistered
    ? { zh: '', en: '' }
    : {
        zh: '您尚未注册，请先用本手机号注册，再',
        en: ' Register with this phone number first, then',
      };
  const text =
    `【电子签章】${row.companyName}邀请您成为企业经办人。${register.zh}请在${days}天内打开链接接受或拒绝：${url}` +
    ` [e-Sign] ${row.companyName} invites you to become an operator of the company.${register.en}` +
    ` Open the link within ${days} days to accept or decline: ${url}`;
  await deps.messenger.notify({
    to: row.phone,
    purpose: 'company:invitation',
    text,
    sms: { who: row.companyName, flowTitle: '', link: url },
  });
  await deps.hooks.emit(companyNotice, {
    deps,
    phone: row.phone,
    kind: 'company_invitation',
    title: `企业邀请 Company invitation: ${row.companyName}`,
    text:
      `${row.companyName}邀请您成为企业经办人，请在${days}天内接受或拒绝。` +
      ` ${row.companyName} invites you to become an operator; accept or decline within ${days} days.`,
    link,
  });
}

/**
 * addCompanyOperator: invites the phone. A pending, unexpired invitation of the same phone is sent again
 * rather than doubled; an active or disabled member is refused.
 */
export async function inviteOperator(deps: AppDeps, actor: Actor, phone: string): Promise<CompanyInvitation> {
  const access = await requireCompanyRole(deps, actor, ADMIN);
  await refuseMember(deps, access.companyId, phone);
  const now = deps.clock.now();
  const live = await iq.pendingInvitation(deps.db, access.companyId, phone);
  if (live) return resend(deps, actor, live.id);
  await countInvite(deps, access.companyId);
  const id = await iq.insertInvitation(deps.db, {
    companyId: access.companyId,
    phone,
    invitedBy: access.userId,
    expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_DAYS * DAY_MS),
    now,
  });
  // A concurrent invitation of the same phone won: answer that one.
  const row = id
    ? (await iq.invitationOfCompany(deps.db, access.companyId, id))!
    : (await iq.pendingInvitation(deps.db, access.companyId, phone))!;
  if (id) {
    await iq.insertEvent(deps.db, {
      companyId: access.companyId,
      kind: 'invitation_sent',
      actorUserId: access.userId,
      phone,
      invitationId: id,
      now,
    });
    await tell(deps, row);
  }
  return presentOne(deps, row);
}

async function ownInvitation(deps: AppDeps, companyId: string, invitationId: string) {
  const row = await iq.invitationOfCompany(deps.db, companyId, invitationId);
  if (!row) throw new AppError(Code.NotFound, C.invitationNotFound);
  return row;
}

export async function listInvitations(
  deps: AppDeps,
  actor: Actor,
  f: { status?: string; pageNum: number; pageSize: number },
) {
  const access = await requireCompanyRole(deps, actor, ADMIN);
  const page = await iq.invitationPage(deps.db, access.companyId, { ...f, now: deps.clock.now() });
  return {
    list: await present(deps, page.list),
    total: page.total,
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}

export async function withdraw(deps: AppDeps, actor: Actor, invitationId: string) {
  const access = await requireCompanyRole(deps, actor, ADMIN);
  const row = await ownInvitation(deps, access.companyId, invitationId);
  const now = deps.clock.now();
  const ok = await iq.setInvitationStatus(deps.db, { id: row.id, from: ['pending'], to: 'withdrawn', now });
  if (!ok) throw new AppError(Code.Refused, C.invitationNotPending);
  await iq.insertEvent(deps.db, {
    companyId: access.companyId,
    kind: 'invitation_withdrawn',
    actorUserId: access.userId,
    phone: row.phone,
    invitationId: row.id,
    now,
  });
  return presentOne(deps, (await ownInvitation(deps, access.companyId, row.id))!);
}

/** Sends an invitation again with a fresh lifetime; a declined, expired or withdrawn one is pending again. */
export async function resend(deps: AppDeps, actor: Actor, invitationId: string) {
  const access = await requireCompanyRole(deps, actor, ADMIN);
  const row = await ownInvitation(deps, access.companyId, invitationId);
  if (row.status === 'accepted') throw new AppError(Code.Refused, C.invitationAnswered);
  await refuseMember(deps, access.companyId, row.phone);
  await countInvite(deps, access.companyId);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + INVITATION_LIFETIME_DAYS * DAY_MS);
  // Another pending invitation of this phone (made after this one ended) is the one to send.
  const other = await iq.pendingInvitation(deps.db, access.companyId, row.phone);
  const target = other && other.id !== row.id ? other : row;
  if (!(await iq.renewInvitation(deps.db, target.id, expiresAt, now)))
    throw new AppError(Code.Refused, C.invitationAnswered);
  await iq.insertEvent(deps.db, {
    companyId: access.companyId,
    kind: 'invitation_resent',
    actorUserId: access.userId,
    phone: row.phone,
    invitationId: target.id,
    now,
  });
  const renewed = await ownInvitation(deps, access.companyId, target.id);
  await tell(deps, renewed);
  return presentOne(deps, renewed);
}

// ---------- the invitee ----------

/** The caller's own phone: invitations are addressed to phones, and only the phone's account answers them. */
async function callerPhone(deps: AppDeps, actor: Actor): Promise<string> {
  const [found] = await findUsersByPhoneOrName(deps.db, {
    phone: (await usersByIds(deps.db, [actor.userId])).get(actor.userId)?.phone ?? '',
  });
  if (!found || found.userId !== actor.userId || found.status !== 'active')
    throw new AppError(Code.Refused, C.invitationAccountInactive);
  return found.phone;
}

/** An invitation addressed to the caller; another phone's is "not found", the same as one that does not exist. */
async function addressedToCaller(deps: AppDeps, actor: Actor, invitationId: string) {
  const phone = await callerPhone(deps, actor);
  const row = await iq.invitationForPhone(deps.db, phone, invitationId);
  if (!row) throw new AppError(Code.NotFound, C.invitationNotFound);
  return { row, phone };
}

export async function myInvitations(deps: AppDeps, actor: Actor) {
  return present(deps, await iq.invitationsForPhone(deps.db, await callerPhone(deps, actor)));
}

export async function myInvitation(deps: AppDeps, actor: Actor, invitationId: string) {
  return presentOne(deps, (await addressedToCaller(deps, actor, invitationId)).row);
}

export async function answer(deps: AppDeps, actor: Actor, invitationId: string, isAccepted: boolean) {
  const { row, phone } = await addressedToCaller(deps, actor, invitationId);
  const now = deps.clock.now();
  if (isExpired(row, now)) {
    await iq.recordExpiredOnce(deps.db, {
      id: row.id,
      companyId: row.companyId,
      actorUserId: actor.userId,
      phone,
      now,
    });
    throw new AppError(Code.Refused, C.invitationExpired);
  }
  if (row.status !== 'pending') throw new AppError(Code.Refused, C.invitationAnswered);
  if (isAccepted) {
    const m = await q.findMembership(deps.db, row.companyId, actor.userId);
    if (m && (m.status === MemberStatus.Active || m.status === MemberStatus.Disabled))
      throw new AppError(Code.Refused, C.invitationAlreadyMember);
    // One transaction: a replayed or concurrent accept finds the invitation answered and changes nothing.
    const ok = await iq.acceptInvitation(deps.db, {
      id: row.id,
      companyId: row.companyId,
      userId: actor.userId,
      phone,
      now,
    });
    if (!ok) throw new AppError(Code.Refused, C.invitationAnswered);
  } else {
    const ok = await iq.setInvitationStatus(deps.db, {
      id: row.id,
      from: ['pending'],
      to: 'declined',
      now,
      liveOnly: true,
      answeredBy: actor.userId,
    });
    if (!ok) throw new AppError(Code.Refused, C.invitationAnswered);
    await iq.insertEvent(deps.db, {
      companyId: row.companyId,
      kind: 'invitation_declined',
      actorUserId: actor.userId,
      phone,
      invitationId: row.id,
      now,
    });
  }
  return presentOne(deps, (await iq.invitationForPhone(deps.db, phone, row.id))!);
}

// ---------- the audit trail ----------

export async function auditTrail(deps: AppDeps, actor: Actor, f: { pageNum: number; pageSize: number }) {
  const access = await requireCompanyRole(deps, actor, ADMIN);
  const page = await iq.eventPage(deps.db, access.companyId, f);
  const names = await usersByIds(
    deps.db,
    page.list.flatMap((e) => [e.actorUserId, e.subjectUserId].filter((u): u is string => u !== null)),
  );
  const nameOf = (userId: string | null) => {
    const u = userId ? names.get(userId) : undefined;
    return userId ? (u?.name ?? maskPhone(u?.phone ?? '')) : null;
  };
  const list: CompanyEvent[] = page.list.map((e) => ({
    id: String(e.id),
    kind: e.kind,
    actorName: nameOf(e.actorUserId),
    subjectName: nameOf(e.subjectUserId),
    detail: typeof e.detail === 'string' ? JSON.parse(e.detail) : e.detail,
    phone: e.phone ? maskPhone(e.phone) : null,
    invitationId: e.invitationId,
    createdAt: e.createdAt.toISOString(),
  }));
  return { list, total: page.total, pageNum: f.pageNum, pageSize: f.pageSize };
}
