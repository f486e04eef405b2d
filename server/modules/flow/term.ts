// A contract's own term, its expiry reminders and its renewal (issue 29). The term (start and end days, Beijing
// calendar, separate from the signing deadline) comes with the launch (`term`) or from the launcher later
// (setFlowTerm, audit `term_set`). The flow sweep tells the launcher and the chosen people 30, 7 and 1 days
// before the end of a COMPLETED flow (a /message row and an SMS each, audit `term_remind`, webhook
// `flow.term_ending`), each threshold once: it is claimed by a conditional UPDATE, and when several are due at
// once (a flow completed late, a term edited) only the nearest is told. "Renew" answers the launch inputs of a
// new flow with the same parties; the new flow records the old one (`renews_flow_id`). SQL: term-queries.ts.
import type { CallRequest, CallResponse } from '#contract/envelope.ts';
import type { getFlowRenewal } from '#contract/calls/term.ts';
import type { FlowTerm, RenewalParty, TermView } from '#contract/calls/term.ts';
import { TERM_REMIND_DAYS, type TermInput, type TermInputIn } from '#contract/calls/term-input.ts';
import { Code } from '#contract/codes.ts';
import type { AppDeps } from '../../deps.ts';
import type { Exec } from '../../db/sql-helpers.ts';
import { dateOf, jsonOf } from '../../db/sql-helpers.ts';
import { AppError } from '../../http/app-error.ts';
import type { Account } from '../../lib/account.ts';
import type { Actor } from '../../lib/actor.ts';
import { beijingDate } from '../../lib/beijing-time.ts';
import type { AuditActor } from '../audit/index.ts';
import { listActiveMembers } from '../company/index.ts';
import { findUserById, findUserByPhone } from '../session/index.ts';
import { accountOf } from '../document/index.ts';
import { flowAccess, sessionActor } from './access.ts';
import { storeFlowEvent } from './events.ts';
import { type Flow, appliesOf, findFlow, maskPhone, partiesOf } from './model.ts';
import { insertMessage } from './queries.ts';
import { auditDocumentsIn } from './room.ts';
import * as tq from './term-queries.ts';
import { TT } from './term-texts.ts';

const DAY_MS = 86_400_000;
const dayNumber = (d: string) => Date.parse(`${d}T00:00:00Z`) / DAY_MS;
const dayAfter = (d: string, n: number) => new Date((dayNumber(d) + n) * DAY_MS).toISOString().slice(0, 10);
type Person = { phone: string; name?: string };

const sameAccount = (f: Flow, a: Account) => f.ownerType === a.ownerType && f.ownerId === a.ownerId;

/** Before a launch: the flow it renews is a completed flow of the same account (1101 / 1100 otherwise). */
export async function checkRenews(deps: AppDeps, account: Account, renewsFlowId: string | undefined) {
  if (!renewsFlowId) return;
  const old = await findFlow(deps.db, renewsFlowId);
  if (!old || !sameAccount(old, account)) throw new AppError(Code.NotFound, TT.renewedNotFound);
  if (old.status !== 'completed') throw new AppError(Code.Refused, TT.renewOnlyCompleted);
}

/** In the launch's transaction: the flow's term and the flow it renews. */
export async function storeLaunchTerm(
  tx: Exec,
  flowId: string,
  input: { term?: TermInputIn; renewsFlowId?: string },
  now: Date,
): Promise<void> {
  const t = input.term;
  if (t)
    await tq.upsertTerm(
      tx,
      flowId,
      { ...t, remindDays: t.remindDays ?? [...TERM_REMIND_DAYS], remindPeople: t.remindPeople ?? [] },
      now,
    );
  if (input.renewsFlowId) await tq.setRenews(tx, flowId, input.renewsFlowId);
}

function presentTerm(t: tq.TermRow, fullPhones: boolean, now: Date): FlowTerm {
  const today = beijingDate(now);
  const people = jsonOf<Person[]>(t.remindPeople);
  return {
    startsOn: t.startsOn,
    endsOn: t.endsOn,
    remindDays: [...t.remindDays].sort((a, b) => b - a),
    remindPeople: people.map((p) => ({
      phone: fullPhones ? p.phone : maskPhone(p.phone),
      name: p.name ?? null,
    })),
    daysLeft: dayNumber(t.endsOn) - dayNumber(today),
    state: today < t.startsOn ? 'notStarted' : today > t.endsOn ? 'ended' : 'inForce',
    sentDays: [...t.sentDays].sort((a, b) => b - a),
  };
}

/** listFlowTerms: the terms of flows the caller's account launched (others left out). */
export async function termsOfFlows(deps: AppDeps, session: Actor, flowIds: string[]) {
  const account = await accountOf(deps, session);
  const today = beijingDate(deps.clock.now());
  const rows = await tq.termsOfAccount(deps.db, account, [...new Set(flowIds)]);
  return {
    items: rows.map((r) => {
      const daysLeft = dayNumber(r.endsOn) - dayNumber(today);
      return { ...r, daysLeft, state: daysLeft < 0 ? ('ended' as const) : ('inForce' as const) };
    }),
  };
}

const ref = (r: tq.FlowRefRow) => ({
  flowId: r.id,
  title: r.title,
  status: r.status as TermView['renews'] extends infer R
    ? R extends { status: infer S }
      ? S
      : never
    : never,
  createdAt: dateOf(r.createdAt).toISOString(),
});

/** getFlowTerm: for the flow's readers (the launcher's account, its parties); others 1101. */
export async function termView(deps: AppDeps, session: Actor, flowId: string): Promise<TermView> {
  const access = await flowAccess(deps, { session }, flowId);
  const [term, renews, renewedBy] = await Promise.all([
    tq.findTerm(deps.db, flowId),
    tq.renewedFlowOf(deps.db, flowId),
    tq.renewalsOf(deps.db, flowId, access.flow),
  ]);
  return {
    term: term ? presentTerm(term, access.isInitiator, deps.clock.now()) : null,
    renews: renews && access.isInitiator ? ref(renews) : null,
    renewedBy: access.isInitiator ? renewedBy.map(ref) : [],
    isLauncher: access.isInitiator,
  };
}

/** The launcher's account only: any other reader of the flow (a party) gets 1101 as a stranger does. */
async function launcherAccess(deps: AppDeps, session: Actor, flowId: string) {
  const access = await flowAccess(deps, { session }, flowId);
  if (!access.isInitiator) throw new AppError(Code.NotFound, TT.renewedNotFound);
  return access.flow;
}

/** setFlowTerm: set, change or remove the term of a signing or completed flow; audit `term_set`. */
export async function setTerm(
  deps: AppDeps,
  session: Actor,
  flowId: string,
  term: TermInput | null,
  req: { ip?: string; userAgent?: string | null },
): Promise<TermView> {
  const flow = await launcherAccess(deps, session, flowId);
  if (flow.status !== 'signing' && flow.status !== 'completed')
    throw new AppError(Code.Refused, TT.termClosed);
  const now = deps.clock.now();
  const actor = await sessionActor(deps, session, req, flow.initiatorCompanyName);
  await deps.db.transaction(async (tx) => {
    if (term) await tq.upsertTerm(tx, flowId, term, now);
    else await tq.deleteTerm(tx, flowId);
    const detail = term
      ? `term ${term.startsOn} to ${term.endsOn} · remind ${term.remindDays.join('/')} days before · ${term.remindPeople.length} more people`
      : 'term removed';
    await auditAll(tx, flowId, actor, 'term_set', detail, now);
  });
  return termView(deps, session, flowId);
}

const auditAll = (
  tx: Exec,
  flowId: string,
  actor: AuditActor,
  event: 'term_set' | 'term_remind',
  detail: string,
  at: Date,
) => auditDocumentsIn(tx, flowId, { ...actor, event, detail, at });

const MAX_REMIND_DAYS = 30;

/**
 * The flow sweep's term reminders: for each completed flow whose term ends within 30 days and has a threshold
 * due (days left ≤ threshold) not yet told, the due thresholds are claimed at once (one instance wins) and the
 * launcher and the chosen people are told once. Answers the number of flows told.
 */
export async function sendTermReminders(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  const today = beijingDate(now);
  let told = 0;
  for (const flowId of await tq.dueTermFlowIds(deps.db, today, MAX_REMIND_DAYS)) {
    const t = await tq.findTerm(deps.db, flowId);
    if (!t) continue;
    const daysLeft = dayNumber(t.endsOn) - dayNumber(today);
    const due = t.remindDays.filter((d) => daysLeft <= d && !t.sentDays.includes(d));
    if (due.length === 0) continue;
    const flow = await findFlow(deps.db, flowId);
    if (!flow) continue;
    const people = await termAudience(deps, flow, jsonOf<Person[]>(t.remindPeople));
    // Claimed, recorded and its webhook stored in one transaction: a crash before the commit sends nothing.
    const after = await deps.db.transaction(async (tx) => {
      if (!(await tq.claimTermDays(tx, flowId, due))) return null;
      await auditAll(
        tx,
        flowId,
        { actor: 'platform' },
        'term_remind',
        `term ends ${t.endsOn} · ${daysLeft} days left · ${people.length} told`,
        now,
      );
      return storeFlowEvent(deps, tx, 'flow.term_ending', flow, { term: { endsOn: t.endsOn, daysLeft } });
    });
    if (!after) continue;
    const notice = TT.termNotice(flow.title, t.endsOn, daysLeft);
    const who = flow.initiatorCompanyName ?? flow.initiatorName ?? '';
    const link = `${deps.config.publicUrl}/#/signList?flowId=${flowId}`;
    const companyId = flow.ownerType === 1 ? flow.ownerId : null;
    for (const phone of people) {
      await insertMessage(deps.db, {
        phone,
        companyId,
        kind: 'term_ending',
        title: notice.title,
        text: notice.text,
        flowId,
        link: `/signList?flowId=${flowId}`,
        now,
      });
      await deps.messenger.notify({
        to: phone,
        purpose: 'flow:term_ending',
        text: notice.text,
        // SMS template variables and the e-mail (deadline: the term's last day).
        mail: { kind: 'term_ending', flowTitle: flow.title, who, link, deadline: t.endsOn },
      });
    }
    await after();
    told++;
  }
  return told;
}

/** The launcher's phone and the chosen people's, each once. */
async function termAudience(deps: AppDeps, flow: Flow, people: Person[]): Promise<string[]> {
  const launcher = await findUserById(deps.db, flow.initiatorUserId);
  return [...new Set([...(launcher ? [launcher.phone] : []), ...people.map((p) => p.phone)])];
}

type Renewal = CallResponse<typeof getFlowRenewal>;

/** getFlowRenewal: the launch inputs of a renewal of a completed flow of the caller's account. */
export async function renewal(
  deps: AppDeps,
  session: Actor,
  body: CallRequest<typeof getFlowRenewal>,
): Promise<Renewal> {
  const flow = await launcherAccess(deps, session, body.flowId);
  if (flow.status !== 'completed') throw new AppError(Code.Refused, TT.renewOnlyCompleted);
  const parties = await partiesOf(deps.db, flow.id);
  const steps: Renewal['steps'] = [];
  const members = new Map<string, Map<string, string>>();
  for (const p of parties) {
    let picked: RenewalParty['picked'] = null;
    if (p.kind === 'company' && p.companyId) {
      if (!members.has(p.companyId))
        members.set(
          p.companyId,
          new Map((await listActiveMembers(deps, p.companyId)).map((m) => [m.phone, m.userId])),
        );
      const userId = members.get(p.companyId)?.get(p.phone);
      if (userId) picked = { userId, phoneMasked: maskPhone(p.phone) };
    } else if (p.kind === 'person') {
      const user = await findUserByPhone(deps.db, p.phone);
      if (user) picked = { userId: user.id, phoneMasked: maskPhone(p.phone) };
    }
    steps[p.stepIndex] ??= { parties: [] };
    steps[p.stepIndex].parties.push({
      kind: p.kind,
      name: p.name,
      // A registered signer is chosen by id (the phone stays masked); a phone the launcher typed comes back, and
      // a template's roles take phones only (its drafts keep the phones typed, as getTemplateDraft shows them).
      phone: picked && !flow.templateId ? null : p.phone,
      picked,
      companyId: p.companyId,
      companyName: p.companyName,
      applies: appliesOf(p),
      intent: (p.intent as RenewalParty['intent'] | undefined) ?? 'sms',
    });
  }
  const old = await tq.findTerm(deps.db, flow.id);
  const term = old
    ? {
        startsOn: dayAfter(old.endsOn, 1),
        endsOn: dayAfter(old.endsOn, 1 + dayNumber(old.endsOn) - dayNumber(old.startsOn)),
        remindDays: old.remindDays as TermInput['remindDays'],
        remindPeople: jsonOf<Person[]>(old.remindPeople),
      }
    : null;
  return {
    flowId: flow.id,
    kind: flow.templateId ? 'template' : 'upload',
    title: `${flow.title} (renewal)`.slice(0, 100),
    message: flow.message,
    remindEveryDays: flow.remindEveryDays ?? null,
    steps: steps.filter(Boolean),
    term,
    templateId: flow.templateId ?? null,
  };
}
