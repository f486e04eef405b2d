import { Code } from '#contract/codes.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { appendAudit } from '../audit/index.ts';
import { flowDocuments } from '../document/index.ts';
import type { LiveSession } from '../session/index.ts';
import { partiesOf, sendLink } from './model.ts';
import { dateOf } from '../../db/sql-helpers.ts';
import { F } from './texts.ts';

import * as q from './queries.ts';
import { flowAccess, sessionActor } from './access.ts';
import { expireIfDue } from './end.ts';

const REMIND_EVERY_MS = 10 * 60_000;

export async function remind(
  deps: AppDeps,
  session: LiveSession,
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
      (!p.last_reminded_at || now.getTime() - dateOf(p.last_reminded_at).getTime() >= REMIND_EVERY_MS),
  );
  const actor = await sessionActor(deps, session, req, access.flow.initiator_company_name);
  for (const p of due) {
    // Claimed first, so two reminders at once send one message.
    if (!(await q.claimReminder(deps.db, p.id, now, REMIND_EVERY_MS))) continue;
    await sendLink(deps, access.flow, p, 'remind');
    await deps.db.transaction(async (tx) => {
      for (const d of await flowDocuments(tx, flowId))
        await appendAudit(tx, {
          ...actor,
          flowId,
          documentId: d.id,
          event: 'remind',
          detail: `${p.name ?? p.company_name ?? ''} ${p.phone.slice(0, 3)}****${p.phone.slice(-4)}`,
          at: now,
          hashBefore: d.current_sha256,
          hashAfter: d.current_sha256,
        });
    });
  }
  return due.length;
}
