// Hand-over (交接, issue 27): when a member leaves or loses a role, the administrator hands their open work to
// another member in one step. The company module owns the call; each module that keeps a member's work moves
// its own rows when asked through the memberHandover hook, all in one transaction, recorded as one entry.
import type { Actor } from '../../lib/actor.ts';
import type { HandoverCounts } from '#contract/calls/company.ts';
import { Code } from '#contract/codes.ts';
import { MemberStatus } from '../../db/schema/company.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { type MemberHandoverAnswer, memberHandover } from './hooks.ts';
import { listActiveMembers, requireCompanyRole } from './membership.ts';
import * as q from './queries.ts';
import { memberRoles, recordCompanyEvent } from './roles.ts';
import { C } from './texts.ts';

const KNOWN = ['flows', 'parties', 'templates', 'sealAuthorisations', 'sealKeepings'] as const;

/** The listeners' counts summed, the known kinds apart and the others (later modules' rows) by name. */
function sum(answers: MemberHandoverAnswer[]): HandoverCounts {
  const all: Record<string, number> = {};
  for (const a of answers) for (const [kind, n] of Object.entries(a.counts)) all[kind] = (all[kind] ?? 0) + n;
  const other: Record<string, number> = {};
  for (const [kind, n] of Object.entries(all))
    if (!(KNOWN as readonly string[]).includes(kind)) other[kind] = n;
  return {
    flows: all.flows ?? 0,
    parties: all.parties ?? 0,
    templates: all.templates ?? 0,
    sealAuthorisations: all.sealAuthorisations ?? 0,
    sealKeepings: all.sealKeepings ?? 0,
    other,
  };
}

/**
 * handOverMember (and, with dryRun, previewHandover): the administrator hands `from`'s open work in the
 * company to `to`. `from` is any member of the company who joined (active, disabled or removed); `to` an
 * active member holding the handler role now. Each module moves its own rows in ONE transaction with the
 * `handover` entry of the audit trail (detail: the receiver and the counts); the receiver is sent the links
 * of the parties they now sign once it committed. Another company's member is 1101.
 */
export async function handOverMember(
  deps: AppDeps,
  actor: Actor,
  v: { fromUserId: string; toUserId?: string },
  dryRun: boolean,
): Promise<HandoverCounts> {
  const access = await requireCompanyRole(deps, actor, ['admin']);
  const companyId = access.companyId;
  if (v.fromUserId === v.toUserId) throw new AppError(Code.Refused, C.handoverSame);
  const from = await q.findMembership(deps.db, companyId, v.fromUserId);
  if (!from || from.status === MemberStatus.Pending || from.status === MemberStatus.Rejected)
    throw new AppError(Code.NotFound, C.memberNotFound);
  // A preview without a receiver counts the member's open work only.
  const to = v.toUserId
    ? (await listActiveMembers(deps, companyId)).find((m) => m.userId === v.toUserId)
    : dryRun
      ? { userId: '', phone: '', name: null }
      : undefined;
  if (!to) throw new AppError(Code.NotFound, C.memberNotFound);
  if (v.toUserId && !(await memberRoles(deps, companyId, to.userId)).includes('handler'))
    throw new AppError(Code.Refused, C.handoverNeedsHandler);
  const now = deps.clock.now();
  let answers: MemberHandoverAnswer[] = [];
  await deps.db.transaction(async (tx) => {
    answers = await deps.hooks.collect(memberHandover, {
      deps,
      tx,
      companyId,
      fromUserId: from.userId,
      fromPhone: from.phone,
      toUserId: to.userId,
      toPhone: to.phone,
      toName: to.name,
      byUserId: access.userId,
      now,
      dryRun,
    });
    if (dryRun) return;
    const counts = sum(answers);
    await recordCompanyEvent(tx, {
      companyId,
      kind: 'handover',
      actorUserId: access.userId,
      subjectUserId: from.userId,
      detail: { toUserId: to.userId, toName: to.name, ...counts },
      now,
    });
  });
  if (!dryRun)
    for (const a of answers) {
      try {
        await a.afterCommit?.();
      } catch (err) {
        // Expected: a link's SMS failing after the commit must not undo the hand-over; the receiver finds the
        // parties in their pending list and may ask for the link again.
        deps.log.warn({ err, companyId }, 'hand-over: telling the receiver failed');
      }
    }
  return sum(answers);
}
