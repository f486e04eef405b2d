// Reassign (转交), deadline change and copying a signing link (issue 29). SQL: reassign-queries.ts.
//
// Reassign: a party that should not sign hands its turn to someone else with a reason, from its room (roomToken)
// or its session; the launcher from the flow detail. A person party goes to a new name and phone; a company
// party to another active administrator or handler of the same company. One transaction readdresses the party,
// stores the history row, deletes the old links (remembered by hash: an old link then refuses as "handed over")
// and expires the rooms (as a member's hand-over does: handover-queries.ts cutPartyAccess), appends the audit
// entries and stores the webhook event `party.reassigned`; after the commit the new signer is asked to sign
// when it is their turn (ask-to-sign.ts) and the old signer and the launcher are told.
import { randomUUID } from 'node:crypto';
import {
  DEADLINE_CHANGE_MAX_DAYS,
  DEADLINE_CHANGE_MIN_MS,
  type ReassignCandidate,
  type ReassignTarget,
  type Reassignment,
} from '#contract/calls/reassign.ts';
import { Code } from '#contract/codes.ts';
import type { Exec } from '../../db/sql-helpers.ts';
import { dateOf } from '../../db/sql-helpers.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { Actor } from '../../lib/actor.ts';
import { beijingMinute } from '../../lib/beijing-time.ts';
import type { AuditActor, AuditEvent } from '../audit/index.ts';
import { listActiveMembers, membersWithRole } from '../company/index.ts';
import { findUserById } from '../session/index.ts';
import { flowAccess, sessionActor } from './access.ts';
import { askToSign } from './ask-to-sign.ts';
import { expireIfDue } from './end.ts';
import { storeFlowEvent } from './events.ts';
import {
  type Flow,
  type Party,
  findFlow,
  findParty,
  maskPhone,
  newPartyLink,
  notify,
  partiesOf,
} from './model.ts';
import * as rq from './reassign-queries.ts';
import { signerLabel } from './reassign-refusal.ts';
import { R } from './reassign-texts.ts';
import { type Room, auditDocumentsIn, isPhoneProven, roomActor, roomOf, signRefusal } from './room.ts';
import { F } from './texts.ts';

type Req = { ip?: string; userAgent?: string | null };
/** Who asks: a signing room (by its token) or a session. */
export type Asker = { roomToken?: string; session: Actor | null; requireSession: () => Actor };

/** How many times one party may be handed over. */
const MAX_REASSIGNMENTS = 5;

const notFound = () => new AppError(Code.NotFound, F.partyNotFound);
const refused = (t: { en: string; zh: string }) => new AppError(Code.Refused, t);
const who = signerLabel;

/** The flow and party the asker may act on, and as whom: the party itself, or the launcher. */
async function actingOn(deps: AppDeps, asker: Asker, flowId: string, partyId: string, req: Req) {
  await expireIfDue(deps, flowId);
  let room: Room | null = null;
  let role: 'party' | 'launcher';
  let actor: AuditActor;
  const party = await findParty(deps.db, partyId);
  if (asker.roomToken) {
    room = await roomOf(deps, asker.roomToken);
    if (room.flowId !== flowId || room.partyId !== partyId || !party) throw notFound();
    // An embedded room whose phone nobody proved does not hand the party to someone else (as it does not onboard).
    if (!isPhoneProven(room)) throw new AppError(Code.Refused, F.provePhoneFirst);
    role = 'party';
    actor = await roomActor(deps, room, party, req);
  } else {
    const session = asker.requireSession();
    const access = await flowAccess(deps, { session }, flowId);
    if (!party || party.flowId !== flowId) throw notFound();
    if (access.isInitiator) role = 'launcher';
    else if (access.partyIds.includes(partyId)) role = 'party';
    else throw notFound();
    actor = await sessionActor(
      deps,
      session,
      req,
      role === 'launcher' ? access.flow.initiatorCompanyName : null,
    );
  }
  const flow = (await findFlow(deps.db, flowId))!;
  const userId = room ? room.userId : asker.requireSession().userId;
  return { flow, party, role, actor, userId };
}

/** The launcher of the flow acting by session (1101 for anyone else, 1100 for one of its parties). */
async function launcherOf(deps: AppDeps, session: Actor, flowId: string, req: Req) {
  await expireIfDue(deps, flowId);
  const access = await flowAccess(deps, { session }, flowId);
  if (!access.isInitiator) throw new AppError(Code.Refused, F.notInitiator, { status: 602 });
  if (access.flow.status !== 'signing') throw new AppError(Code.FlowClosed, F.flowClosed(access.flow.status));
  return {
    flow: access.flow,
    actor: await sessionActor(deps, session, req, access.flow.initiatorCompanyName),
  };
}

/** A company party's possible new handlers: active administrators and handlers but its current one. */
async function candidatesOf(deps: AppDeps, party: Party): Promise<(ReassignCandidate & { phone: string })[]> {
  if (party.kind !== 'company' || !party.companyId) return [];
  const admins = (await listActiveMembers(deps, party.companyId)).filter((m) => m.role === 'admin');
  const handlers = await membersWithRole(deps, party.companyId, 'handler');
  const seen = new Set<string>();
  const out: (ReassignCandidate & { phone: string })[] = [];
  for (const [list, role] of [
    [admins, 'admin'],
    [handlers, 'handler'],
  ] as const)
    for (const m of list) {
      if (m.phone === party.phone || seen.has(m.userId)) continue;
      seen.add(m.userId);
      out.push({ userId: m.userId, name: m.name, phone: m.phone, phoneMasked: maskPhone(m.phone), role });
    }
  return out;
}

/** listReassignCandidates. */
export async function listCandidates(
  deps: AppDeps,
  asker: Asker,
  b: { flowId: string; partyId: string },
): Promise<{ candidates: ReassignCandidate[] }> {
  const { party } = await actingOn(deps, asker, b.flowId, b.partyId, {});
  return { candidates: (await candidatesOf(deps, party)).map(({ phone: _, ...c }) => c) };
}

/** The new signer's name and phone, checked against the party's kind and company. */
async function targetOf(deps: AppDeps, party: Party, to: ReassignTarget) {
  if (party.kind === 'person') {
    if (!('phone' in to)) throw refused(R.personTarget);
    return { name: to.name, phone: to.phone };
  }
  if (!party.companyId) throw refused(R.companyNotOpened);
  if (!('userId' in to)) throw refused(R.companyTarget);
  const m = (await candidatesOf(deps, party)).find((c) => c.userId === to.userId);
  if (!m)
    throw refused(
      to.userId && party.phone === (await findUserById(deps.db, to.userId))?.phone
        ? R.samePerson
        : R.notHandler,
    );
  return { name: m.name, phone: m.phone };
}

/** Appends one event to every document chain of the flow, in `tx`. */
const auditAll = (tx: Exec, flowId: string, actor: AuditActor, event: AuditEvent, detail: string, at: Date) =>
  auditDocumentsIn(tx, flowId, { ...actor, event, detail, at });

/** reassignParty. */
export async function reassign(
  deps: AppDeps,
  asker: Asker,
  b: { flowId: string; partyId: string; to: ReassignTarget; reason: string },
  req: Req,
): Promise<{ reassignmentId: string; partyStatus: string }> {
  const { flow, party, role, actor, userId } = await actingOn(deps, asker, b.flowId, b.partyId, req);
  if (flow.status !== 'signing') throw new AppError(Code.FlowClosed, F.flowClosed(flow.status));
  if (party.status === 'signed') throw refused(R.partySigned);
  if (party.status !== 'pending' && party.status !== 'waiting') throw refused(R.partyRefused);
  if (!(await rq.reassignAllowedOf(deps.db, flow.id)).find((p) => p.partyId === party.id)?.allowReassign)
    throw refused(R.forbidden);
  // Each hand-over sends a link and notices: a party is handed over a few times at most.
  if ((await rq.reassignmentCount(deps.db, party.id)) >= MAX_REASSIGNMENTS)
    throw refused(R.tooMany(MAX_REASSIGNMENTS));
  const target = await targetOf(deps, party, b.to);
  if (target.phone === party.phone) throw refused(R.samePerson);
  const now = deps.clock.now();
  const id = randomUUID();
  const [from, to] = [who(party.name, party.phone), who(target.name, target.phone)];
  const after = await deps.db.transaction(async (tx) => {
    const moved = await rq.readdressParty(tx, {
      id,
      flowId: flow.id,
      partyId: party.id,
      fromName: party.name,
      fromPhone: party.phone,
      toName: target.name,
      toPhone: target.phone,
      reason: b.reason,
      byRole: role,
      byUserId: userId,
      byName: actor.actor,
      at: now,
    });
    // Signed, refused or reassigned by a parallel call meanwhile: nothing changed.
    if (!moved) throw refused(R.partyRefused);
    await auditAll(
      tx,
      flow.id,
      actor,
      'reassign',
      `from ${from} to ${to} · by ${role} · reason: ${b.reason}`,
      now,
    );
    return storeFlowEvent(deps, tx, 'party.reassigned', flow.id, { party: moved, reason: b.reason });
  });
  await after();
  const [nowFlow, nowParty] = [(await findFlow(deps.db, flow.id))!, (await findParty(deps.db, party.id))!];
  if (nowParty.status === 'pending' && !nowFlow.heldForApproval) await askToSign(deps, nowFlow, nowParty);
  const notice = R.reassignedNotice(flow.title, actor.actor, to);
  const told = { ...notice, flowId: flow.id, link: null, mail: { flowTitle: flow.title, who: actor.actor } };
  await notify(deps, { phone: party.phone, companyId: party.companyId }, { kind: 'reassigned', ...told });
  const launcher = await findUserById(deps.db, flow.initiatorUserId);
  if (launcher && !(role === 'launcher' && userId === launcher.id) && launcher.phone !== party.phone)
    await notify(
      deps,
      { phone: launcher.phone, companyId: flow.ownerType === 1 ? flow.ownerId : null },
      { kind: 'reassigned', ...told },
    );
  return { reassignmentId: id, partyStatus: nowParty.status };
}

/** listReassignments: for the flow's readers. */
export async function history(
  deps: AppDeps,
  asker: Asker,
  flowId: string,
): Promise<{ items: Reassignment[]; parties: { partyId: string; allowReassign: boolean }[] }> {
  if (asker.roomToken) {
    const room = await roomOf(deps, asker.roomToken);
    if (room.flowId !== flowId) throw new AppError(Code.NotFound, F.flowNotFound);
  } else await flowAccess(deps, { session: asker.requireSession() }, flowId);
  const items = (await rq.reassignmentsOf(deps.db, flowId)).map((r) => ({
    id: r.id,
    partyId: r.partyId,
    fromName: r.fromName,
    fromPhoneMasked: maskPhone(r.fromPhone),
    toName: r.toName,
    toPhoneMasked: maskPhone(r.toPhone),
    reason: r.reason,
    byRole: r.byRole,
    byName: r.byName,
    at: dateOf(r.at).toISOString(),
  }));
  return { items, parties: await rq.reassignAllowedOf(deps.db, flowId) };
}

/** changeFlowDeadline: extend or shorten an open flow's deadline; everyone unsigned told. */
export async function changeDeadline(
  deps: AppDeps,
  session: Actor,
  b: { flowId: string; deadline: string },
  req: Req,
): Promise<{ deadline: string }> {
  const { flow, actor } = await launcherOf(deps, session, b.flowId, req);
  const now = deps.clock.now();
  const deadline = new Date(b.deadline);
  if (deadline.getTime() < now.getTime() + DEADLINE_CHANGE_MIN_MS) throw refused(R.deadlineTooSoon);
  if (deadline.getTime() > now.getTime() + DEADLINE_CHANGE_MAX_DAYS * 86_400_000)
    throw refused(R.deadlineTooLate(DEADLINE_CHANGE_MAX_DAYS));
  const old = dateOf(flow.deadline);
  if (old.getTime() === deadline.getTime()) throw refused(R.deadlineSame);
  // Within a day already: this change's notice is the day-before notice; otherwise the sweep sends it again.
  const noticeDone = deadline.getTime() - now.getTime() <= 86_400_000 ? now : null;
  const [oldText, newText] = [beijingMinute(old), beijingMinute(deadline)];
  const after = await deps.db.transaction(async (tx) => {
    const moved = await rq.moveDeadline(tx, { flowId: flow.id, deadline, noticeDone });
    if (!moved) throw new AppError(Code.FlowClosed, F.flowClosed('closed'));
    await auditAll(
      tx,
      flow.id,
      actor,
      'deadline_change',
      `deadline ${oldText} -> ${newText} (Beijing time)`,
      now,
    );
    return storeFlowEvent(deps, tx, 'flow.deadline_changed', moved, { reason: deadline.toISOString() });
  });
  await after();
  if (!flow.heldForApproval) await tellDeadline(deps, flow, newText);
  return { deadline: deadline.toISOString() };
}

/** Every unsigned party of the flow (pending or waiting), once per phone, gets the new deadline. */
async function tellDeadline(deps: AppDeps, flow: Flow, deadline: string): Promise<void> {
  const { title, text } = R.deadlineNotice(flow.title, deadline);
  const seen = new Set<string>();
  for (const p of await partiesOf(deps.db, flow.id)) {
    if ((p.status !== 'pending' && p.status !== 'waiting') || seen.has(`${p.phone}|${p.companyId}`)) continue;
    seen.add(`${p.phone}|${p.companyId}`);
    await notify(
      deps,
      { phone: p.phone, companyId: p.companyId },
      {
        kind: 'deadline_changed',
        title,
        text,
        flowId: flow.id,
        link: null,
        mail: { flowTitle: flow.title, who: flow.initiatorCompanyName ?? flow.initiatorName ?? '', deadline },
      },
    );
  }
}

/** copySigningLink: a fresh link of a party whose turn it is, answered once, logged. */
export async function copyLink(
  deps: AppDeps,
  session: Actor,
  b: { flowId: string; partyId: string },
  req: Req,
): Promise<{ link: string; url: string }> {
  const { flow, actor } = await launcherOf(deps, session, b.flowId, req);
  const party = await findParty(deps.db, b.partyId);
  if (!party || party.flowId !== flow.id) throw notFound();
  if (flow.heldForApproval) throw refused(R.linkHeld);
  const refusal = signRefusal(flow, party, deps.clock.now());
  if (refusal) throw refusal.code === Code.NotYourTurn ? refused(R.linkNotNow) : refusal;
  const link = await newPartyLink(deps, party);
  const now = deps.clock.now();
  await deps.db.transaction((tx) =>
    auditAll(tx, flow.id, actor, 'link_copied', `link copied for ${who(party.name, party.phone)}`, now),
  );
  return { link, url: `${deps.config.publicUrl}/#${link}` };
}
