import type { Actor } from '../../lib/actor.ts';
import { Code } from '#contract/codes.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { type AuditActor, appendAudit } from '../audit/index.ts';
import { flowDocuments } from '../document/index.ts';
import { type Flow, partiesOf, sendLink } from './model.ts';
import { dateOf } from '../../db/sql-helpers.ts';
import { F } from './texts.ts';

import * as q from './queries.ts';
import type { Party } from './queries.ts';
import { flowAccess, sessionActor } from './access.ts';
import { expireIfDue } from './end.ts';

const REMIND_EVERY_MS = 10 * 60_000;
const PLATFORM_ACTOR: AuditActor = { actor: 'platform' };

/** remindFlow: the launcher reminds the unsigned parties of the current step (each at most every 10 minutes). */
export async function remind(
  deps: AppDeps,
  session: Actor,
  flowId: string,
  partyIds: string[] | undefined,
  req: { ip?: string; userAgent?: string | null },
): Promise<number> {
  await expireIfDue(deps, flowId);
  const access = await flowAccess(deps, { session }, flowId);
  if (!access.isInitiator) throw new AppError(Code.Refused, F.notInitiator, { status: 602 });
  if (access.flow.status !== 'signing') throw new AppError(Code.FlowClosed, F.flowClosed(access.flow.status));
  const now = deps.clock.now();
  const due = (await partiesOf(deps.db, flowId)).filter(
    (p) =>
      p.status === 'pending' &&
      (!partyIds || partyIds.includes(p.id)) &&
      (!p.lastRemindedAt || now.getTime() - dateOf(p.lastRemindedAt).getTime() >= REMIND_EVERY_MS),
  );
  const actor = await sessionActor(deps, session, req, access.flow.initiatorCompanyName);
  await remindParties(deps, access.flow, due, actor, now);
  return due.length;
}

/**
 * The reminders the launcher chose at launch ("remind every N days"): every open flow whose next reminder is
 * due reminds its unsigned parties, and its next reminder moves N days on (claimed first: one instance sends
 * it). Called by the flow sweep job. Answers the number of flows reminded.
 */
export async function sendDueReminders(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  return remindClaimedFlows(
    deps,
    await q.dueReminderFlowIds(deps.db, now),
    (id) => q.claimFlowReminder(deps.db, id, now),
    now,
    'remind',
  );
}

/** How long before its deadline an open flow's unsigned parties are told it is near. */
const DEADLINE_NOTICE_MS = 24 * 60 * 60_000;

/**
 * The "deadline approaching" notice: a day before an open flow's deadline, the unsigned parties of its
 * current step get their link again with the deadline (SMS template `SMS_TEMPLATE_DEADLINE_SOON`, e-mail,
 * /message), once per flow (claimed first: one instance sends it). Not for a flow launched with its
 * deadline already that close. Called by the flow sweep job; answers the number of flows told.
 */
export async function sendDeadlineNotices(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  return remindClaimedFlows(
    deps,
    await q.dueDeadlineNoticeFlowIds(deps.db, now, DEADLINE_NOTICE_MS),
    (id) => q.claimDeadlineNotice(deps.db, id, now),
    now,
    'deadline_soon',
  );
}

/**
 * The platform's notice to the unsigned parties of each flow in `ids` whose claim this instance wins (the
 * claim moves the flow's next notice on, so one instance sends each). Answers the number of flows told.
 */
async function remindClaimedFlows(
  deps: AppDeps,
  ids: string[],
  claim: (flowId: string) => Promise<Flow | undefined>,
  now: Date,
  kind: ReminderKind,
): Promise<number> {
  let n = 0;
  for (const id of ids) {
    const flow = await claim(id);
    if (!flow) continue;
    const unsigned = (await partiesOf(deps.db, id)).filter((p) => p.status === 'pending');
    await remindParties(deps, flow, unsigned, PLATFORM_ACTOR, now, kind);
    n++;
  }
  return n;
}

type ReminderKind = 'remind' | 'deadline_soon';

/** Sends each party a new link with the reminder notice, and an audit entry on every document. */
async function remindParties(
  deps: AppDeps,
  flow: Flow,
  parties: Party[],
  actor: AuditActor,
  now: Date,
  kind: ReminderKind = 'remind',
): Promise<void> {
  for (const p of parties) {
    // Claimed first, so two reminders at once send one message (a party reminded in the last minutes is
    // not told again, the deadline notice included: that reminder just gave the link).
    if (!(await q.claimReminder(deps.db, p.id, now, REMIND_EVERY_MS))) continue;
    await sendLink(deps, flow, p, kind);
    await deps.db.transaction(async (tx) => {
      for (const d of await flowDocuments(tx, flow.id))
        await appendAudit(tx, {
          ...actor,
          flowId: flow.id,
          documentId: d.id,
          event: 'remind',
          detail:
            (kind === 'deadline_soon' ? '截止提醒 deadline notice: ' : '') +
            `${p.name ?? p.companyName ?? ''} ${p.phone.slice(0, 3)}****${p.phone.slice(-4)}`,
          at: now,
          hashBefore: d.currentSha256,
          hashAfter: d.currentSha256,
        });
    });
  }
}
