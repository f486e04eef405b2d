import type { Actor } from '../../lib/actor.ts';
import { Code } from '#contract/codes.ts';
import { UserType } from '#contract/enums.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuditActor } from '../audit/index.ts';
import { listActiveMembers } from '../company/index.ts';
import { findUserById } from '../session/index.ts';
import { type Flow, type Party, findFlow, partiesOf } from './model.ts';
import { F } from './texts.ts';

/** The reader of a flow: a logged-in session, or a signing room (one party). */
export type Reader = { session: Actor } | { room: { partyId: string; flowId: string } };

type FlowAccess = { flow: Flow; isInitiator: boolean; partyIds: string[] };

const notFound = () => new AppError(Code.NotFound, F.flowNotFound);

/** Phone of a user (sessions carry only the id). */
export async function phoneOf(deps: AppDeps, userId: string): Promise<string> {
  const u = await findUserById(deps.db, userId);
  if (!u) throw new Error(`user ${userId} is missing`);
  return u.phone;
}

/**
 * The parties of a flow a session may act for. Authorisation: a person session acts for person parties
 * addressed to its own phone; a company session acts for parties of ITS company (from the session) when the
 * caller is the administrator or the member the party's link was sent to.
 */
async function partiesForSession(deps: AppDeps, session: Actor, parties: Party[]): Promise<Party[]> {
  const phone = await phoneOf(deps, session.userId);
  if (session.userType === UserType.Company) {
    if (!session.companyId) return [];
    const mine = parties.filter((p) => p.kind === 'company' && p.companyId === session.companyId);
    if (mine.length === 0) return [];
    const me = (await listActiveMembers(deps, session.companyId)).find((m) => m.userId === session.userId);
    if (!me) return [];
    return mine.filter((p) => me.role === 'admin' || p.phone === phone);
  }
  return parties.filter((p) => p.kind === 'person' && p.phone === phone);
}

/**
 * Decides whether the reader may see the flow: the initiating account (person, or an active member of the
 * initiating company), a party (see partiesForSession), or the room of one of its parties. Anyone else gets
 * 1101 NotFound, the same answer as for a flow that does not exist.
 */
export async function flowAccess(deps: AppDeps, reader: Reader, flowId: string): Promise<FlowAccess> {
  const flow = await findFlow(deps.db, flowId);
  if (!flow) throw notFound();
  if ('room' in reader) {
    if (reader.room.flowId !== flowId) throw notFound();
    return { flow, isInitiator: false, partyIds: [reader.room.partyId] };
  }
  const { session } = reader;
  let isInitiator = false;
  if (session.userType === UserType.Person)
    isInitiator = flow.ownerType === 0 && flow.ownerId === session.userId;
  else if (session.companyId && flow.ownerType === 1 && flow.ownerId === session.companyId) {
    const members = await listActiveMembers(deps, session.companyId);
    isInitiator = members.some((m) => m.userId === session.userId);
  }
  const mine = await partiesForSession(deps, session, await partiesOf(deps.db, flowId));
  if (!isInitiator && mine.length === 0) throw notFound();
  return { flow, isInitiator, partyIds: mine.map((p) => p.id) };
}

/** Who the caller is, for audit entries. */
export async function sessionActor(
  deps: AppDeps,
  session: Actor,
  req: { ip?: string; userAgent?: string | null },
  companyName?: string | null,
): Promise<AuditActor> {
  const u = await findUserById(deps.db, session.userId);
  return {
    actor: u?.name ?? (u ? `${u.phone.slice(0, 3)}****${u.phone.slice(-4)}` : session.userId),
    actorPhone: u?.phone ?? null,
    actorCompany: companyName ?? null,
    ip: req.ip ?? null,
    userAgent: req.userAgent ?? null,
  };
}
