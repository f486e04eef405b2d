// The flow's rows as the contract shows them (summaries, parties, progress), the party links, and the
// notices sent to parties (a /message row and the message itself). SQL: queries.ts.
import { beijingMinute } from '../../lib/beijing-time.ts';
import { findUserById } from '../session/index.ts';
import { createHash, randomBytes } from 'node:crypto';
import type { Applies, FlowSummary, PartyView } from '#contract/calls/flow.ts';
import { LinkType } from '#contract/calls/flow.ts';
import type { AppDeps } from '../../deps.ts';
import type { Account } from '../../lib/account.ts';
import { documentNamesOf } from '../document/index.ts';
import { type Exec, dateOf, isoOrNull, jsonOf } from '../../db/sql-helpers.ts';
import {
  type Flow,
  type Party,
  findFlow,
  findParty,
  insertMessage,
  insertPartyLink,
  markPartyMoment,
  partiesOf,
  partyCountsOf,
} from './queries.ts';

export type { Flow, Party };
export { findFlow, findParty, partiesOf };

export type ResolvedPosition = { documentId: string; page: number; rect: [number, number, number, number] };

export const accountOfFlow = (f: Flow): Account => ({
  ownerType: f.ownerType as 0 | 1,
  ownerId: f.ownerId,
});
export const appliesOf = (p: Party) => jsonOf<Applies>(p.applies);
export const positionsOf = (p: Party) => jsonOf<ResolvedPosition[]>(p.positions);
export const maskPhone = (p: string) => `${p.slice(0, 3)}****${p.slice(-4)}`;

export function presentParty(p: Party): PartyView {
  return {
    partyId: p.id,
    stepIndex: p.stepIndex,
    kind: p.kind,
    linkType: p.linkType,
    name: p.name,
    phoneMasked: maskPhone(p.phone),
    companyId: p.companyId,
    companyName: p.companyName,
    applies: appliesOf(p),
    intent: (p.intent as PartyView['intent'] | undefined) ?? 'sms',
    positions: positionsOf(p),
    status: p.status as PartyView['status'],
    signedAt: isoOrNull(p.signedAt),
    declinedAt: isoOrNull(p.declinedAt),
    declineReason: p.declineReason,
    signedByName: p.signedByName,
    lastRemindedAt: isoOrNull(p.lastRemindedAt),
    sentAt: isoOrNull(p.sentAt),
    openedAt: isoOrNull(p.openedAt),
    onboardingAt: isoOrNull(p.onboardingAt),
    onboardingProblem: p.onboardingProblem ? jsonOf<{ zh: string; en: string }>(p.onboardingProblem) : null,
    progress: progressOf(p),
  };
}

/** Where a party stands, for the launcher's flow detail. */
function progressOf(p: Party): PartyView['progress'] {
  if (p.status === 'signed') return 'signed';
  if (p.status === 'declined') return 'refused';
  if (p.status === 'closed') return 'closed';
  if (p.status === 'waiting') return 'waiting';
  if (p.onboardingAt) return 'onboarding';
  if (p.openedAt) return 'opened';
  return 'sent';
}

function presentSummary(
  f: Flow,
  names: string[],
  counts: { all: number; signed: number } | undefined,
): FlowSummary {
  return {
    flowId: f.id,
    title: f.title,
    status: f.status as FlowSummary['status'],
    isQuick: f.isQuick,
    initiatorName: f.initiatorName,
    initiatorCompanyName: f.initiatorCompanyName,
    createdAt: dateOf(f.createdAt).toISOString(),
    deadline: dateOf(f.deadline).toISOString(),
    completedAt: isoOrNull(f.completedAt),
    currentStep: f.currentStep,
    partyCount: counts?.all ?? 0,
    signedCount: counts?.signed ?? 0,
    documentNames: names,
    awaitingApproval: f.status === 'signing' && f.heldForApproval === true,
    voidedAt: isoOrNull(f.voidedAt),
    voidedByFlowId: f.voidedByFlowId ?? null,
    rescindsFlowId: f.rescindsFlowId ?? null,
  };
}

export async function summaries(ex: Exec, flows: Flow[]): Promise<FlowSummary[]> {
  const ids = flows.map((f) => f.id);
  const [names, counts] = await Promise.all([documentNamesOf(ex, ids), partyCountsOf(ex, ids)]);
  return flows.map((f) => presentSummary(f, names.get(f.id) ?? [], counts.get(f.id)));
}

// ---------------------------------------------------------------------------------------------------------
// Links and notices

export const hashLinkCode = (code: string) => createHash('sha256').update(`link:${code}`).digest('hex');
export const linkTypeOf = (kind: 'person' | 'company') =>
  kind === 'company' ? LinkType.Company : LinkType.Person;

/** SPA path of a signing link (hash router): `/singingRoom/:linkType/:linkCode`. */
const linkPath = (linkType: number, code: string) => `/singingRoom/${linkType}/${code}`;

/**
 * A new link for a party: 192 random bits, only the hash stored. Earlier links of the party stay valid
 * (a reminder does not break the link of the first message).
 */
export async function newPartyLink(deps: AppDeps, party: Party): Promise<string> {
  const code = randomBytes(24).toString('base64url');
  await insertPartyLink(deps.db, hashLinkCode(code), party.id, deps.clock.now());
  return linkPath(party.linkType, code);
}

type MessageKind =
  | 'sign_request'
  | 'remind'
  | 'deadline_soon'
  | 'completed'
  | 'declined'
  | 'cancelled'
  | 'expired'
  | 'signed'
  | 'reassigned'
  | 'deadline_changed'
  | 'revised';

/**
 * A notice to one person: a row of /message (by phone, within a company or as a person) and the message
 * itself through the messenger (the outbox in development). Texts carry both languages.
 */
export async function notify(
  deps: AppDeps,
  to: { phone: string; companyId: string | null },
  m: {
    kind: MessageKind;
    title: string;
    text: string;
    flowId: string | null;
    link: string | null;
    mail?: { flowTitle: string; who: string; deadline?: string };
  },
): Promise<void> {
  await insertMessage(deps.db, {
    phone: to.phone,
    companyId: to.companyId,
    kind: m.kind,
    title: m.title,
    text: m.text,
    flowId: m.flowId,
    link: m.link,
    now: deps.clock.now(),
  });
  const url = m.link ? `${deps.config.publicUrl}/#${m.link}` : null;
  await deps.messenger.notify({
    to: to.phone,
    purpose: `flow:${m.kind}`,
    text: url ? `${m.text} ${url}` : m.text,
    // SMS template variables and the e-mail (server/messaging); a finished flow's mail links to the
    // signing list, where the logged-in person downloads the signed document (never attached).
    mail: m.mail && {
      ...m.mail,
      kind: m.kind,
      link: url ?? (m.kind === 'completed' ? `${deps.config.publicUrl}/#/signList` : null),
    },
  });
}

type LinkKind = 'sign_request' | 'remind' | 'deadline_soon';

/** The notice's title and text in both languages, for each reason a party gets its link. */
function linkNotice(kind: LinkKind, who: string, title: string, deadline: string) {
  if (kind === 'deadline_soon')
    return {
      title: `即将截止 Deadline soon: ${title}`,
      text:
        `【电子签章】《${title}》将于${deadline}（北京时间）截止签署，逾期未签署将无法签署，请尽快打开链接完成签署。` +
        ` [e-Sign] "${title}" can be signed until ${deadline} (Beijing time, UTC+8); after that it cannot be` +
        ' signed. Open the link to sign:',
    };
  const [zhTitle, enTitle, zhVerb, enVerb] =
    kind === 'remind'
      ? ['签署提醒', 'Reminder', '提醒您', 'reminds you to sign']
      : ['待签署', 'To sign', '邀请您', 'invites you to sign'];
  return {
    title: `${zhTitle} ${enTitle}: ${title}`,
    text: `【电子签章】${who}${zhVerb}签署《${title}》，请打开链接完成签署。 [e-Sign] ${who} ${enVerb} "${title}". Open the link to sign:`,
  };
}

/** Sends a party its signing link: at its step's start, as a reminder, or with the deadline a day away. */
export async function sendLink(deps: AppDeps, flow: Flow, party: Party, kind: LinkKind) {
  const link = await newPartyLink(deps, party);
  await markPartyMoment(deps.db, party.id, 'sentAt', deps.clock.now());
  const who = flow.initiatorCompanyName ?? flow.initiatorName ?? '';
  const deadline = beijingMinute(dateOf(flow.deadline));
  const { title, text } = linkNotice(kind, who, flow.title, deadline);
  await notify(
    deps,
    { phone: party.phone, companyId: party.companyId },
    {
      kind,
      title,
      text,
      flowId: flow.id,
      link,
      mail: { flowTitle: flow.title, who, ...(kind === 'deadline_soon' ? { deadline } : {}) },
    },
  );
  return link;
}

/** Tells the initiator that one party signed (the last signature is told by notifyEnd 'completed'). */
export async function notifySigned(
  deps: AppDeps,
  flow: Flow,
  signerName: string,
  signerUserId: string | null,
): Promise<void> {
  if (signerUserId === flow.initiatorUserId) return;
  const initiator = await findUserById(deps.db, flow.initiatorUserId);
  if (!initiator) return;
  await notify(
    deps,
    { phone: initiator.phone, companyId: flow.ownerType === 1 ? flow.ownerId : null },
    {
      kind: 'signed',
      title: `已签署 Signed: ${flow.title}`,
      text: `【电子签章】${signerName}已签署《${flow.title}》。 [e-Sign] ${signerName} has signed "${flow.title}".`,
      flowId: flow.id,
      link: null,
      mail: { flowTitle: flow.title, who: signerName },
    },
  );
}

/** Tells the initiator and every party how a flow ended. */
export async function notifyEnd(
  deps: AppDeps,
  flow: Flow,
  kind: 'completed' | 'declined' | 'cancelled' | 'expired',
  initiatorPhone: string | null,
): Promise<void> {
  // A flow held for its launch approval was never sent: only its initiator hears it ended.
  const isSent = !flow.heldForApproval;
  const words = {
    completed: ['已完成签署', 'is completed'],
    declined: ['已被拒签', 'was declined'],
    cancelled: ['已被撤销', 'was cancelled'],
    expired: ['已过期', 'expired'],
  }[kind];
  const title = `${words[0]} ${flow.title}`;
  const text = `【电子签章】《${flow.title}》${words[0]}。 [e-Sign] "${flow.title}" ${words[1]}.`;
  const seen = new Set<string>();
  const targets: { phone: string; companyId: string | null }[] = [];
  if (initiatorPhone)
    targets.push({ phone: initiatorPhone, companyId: flow.ownerType === 1 ? flow.ownerId : null });
  if (isSent)
    for (const p of await partiesOf(deps.db, flow.id))
      targets.push({ phone: p.phone, companyId: p.companyId });
  for (const t of targets) {
    const key = `${t.phone}|${t.companyId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    await notify(deps, t, {
      kind,
      title,
      text,
      flowId: flow.id,
      link: null,
      mail: { flowTitle: flow.title, who: flow.initiatorCompanyName ?? flow.initiatorName ?? '' },
    });
  }
}
