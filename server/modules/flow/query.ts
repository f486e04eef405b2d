import type { Actor } from '../../lib/actor.ts';
import type { FlowDetail } from '#contract/calls/flow.ts';
import { UserType } from '#contract/enums.ts';
import type { AppDeps } from '../../deps.ts';
import { listActiveMembers } from '../company/index.ts';
import { accountOf, flowDocuments, presentDocument } from '../document/index.ts';
import { partiesOf, presentParty, summaries } from './model.ts';
import { dateOf } from '../../db/sql-helpers.ts';
import { fieldValuesOfFlows, flowFields } from './fields.ts';

import * as q from './queries.ts';
import { type Reader, flowAccess, phoneOf } from './access.ts';
import { expireIfDue, sweepExpired } from './end.ts';

export async function detail(deps: AppDeps, reader: Reader, flowId: string): Promise<FlowDetail> {
  await expireIfDue(deps, flowId);
  const access = await flowAccess(deps, reader, flowId);
  const { flow } = access;
  const parties = await partiesOf(deps.db, flowId);
  const docs = await flowDocuments(deps.db, flowId);
  const [summary] = await summaries(deps.db, [flow]);
  const steps = Array.from({ length: flow.stepCount }, (_, index) => ({
    index,
    parties: parties.filter((p) => p.stepIndex === index).map(presentParty),
  }));
  const isOpen = flow.status === 'signing';
  return {
    ...summary,
    message: flow.message,
    endReason: flow.endReason,
    endedAt: flow.endedAt ? dateOf(flow.endedAt).toISOString() : null,
    remindEveryDays: flow.remindEveryDays ?? null,
    nextRemindAt: isOpen && flow.nextRemindAt ? dateOf(flow.nextRemindAt).toISOString() : null,
    documents: docs.map((d) => presentDocument(d, flow.status)),
    steps,
    fields: await flowFields(deps, flowId),
    mine: {
      isInitiator: access.isInitiator,
      myPendingPartyIds: parties
        .filter(
          (p) =>
            access.partyIds.includes(p.id) && p.status === 'pending' && isOpen && !summary.awaitingApproval,
        )
        .map((p) => p.id),
      canCancel: access.isInitiator && isOpen,
      canRemind: access.isInitiator && isOpen,
    },
  };
}

export async function listLaunched(deps: AppDeps, session: Actor, f: q.ListFilters & { status?: string }) {
  const account = await accountOf(deps, session);
  await sweepExpired(deps);
  const { list, total } = await q.launchedPage(deps.db, account, f);
  const values = await fieldValuesOfFlows(
    deps,
    list.map((x) => x.id),
  );
  const sums = await summaries(deps.db, list);
  return {
    list: sums.map((x) => ({ ...x, fieldValues: values.get(x.flowId) ?? [] })),
    total,
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}

/** Whose parties a session signs for (the pending list, batch signing). */
export async function signerScope(deps: AppDeps, session: Actor): Promise<Parameters<typeof q.partyPage>[1]> {
  const phone = await phoneOf(deps, session.userId);
  if (session.userType !== UserType.Company) return { kind: 'person', phone };
  const access = await accountOf(deps, session);
  const me = (await listActiveMembers(deps, access.ownerId)).find((m) => m.userId === session.userId);
  // Authorisation: the administrator sees every party of the company, an operator those sent to them.
  return { kind: 'company', companyId: access.ownerId, phone: me?.role === 'admin' ? null : phone };
}

export async function listPending(deps: AppDeps, session: Actor, f: q.ListFilters & { status?: string }) {
  await sweepExpired(deps);
  const { list, total } = await q.partyPage(deps.db, await signerScope(deps, session), f);
  const sums = await summaries(deps.db, list);
  return {
    list: list.map((r, i) => ({
      ...sums[i],
      partyId: r.partyId,
      partyStatus: r.partyStatus as 'pending',
      partyKind: r.partyKind,
    })),
    total,
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Messages

/** A company session reads the messages of its phone within its company; a person session those outside any. */
const messageScope = (session: Actor, phone: string): q.MessageScope => ({
  phone,
  companyId: session.userType === UserType.Company && session.companyId ? session.companyId : null,
});

export async function listMessages(
  deps: AppDeps,
  session: Actor,
  f: { pageNum: number; pageSize: number; unreadOnly?: boolean },
) {
  const phone = await phoneOf(deps, session.userId);
  const scope = messageScope(session, phone);
  const { list, total } = await q.messagePage(deps.db, scope, f);
  const unread = await q.unreadCount(deps.db, scope);
  return {
    list: list.map((m) => ({
      id: m.id,
      kind: m.kind as 'remind',
      title: m.title,
      text: m.text,
      flowId: m.flowId,
      link: m.link,
      isRead: m.readAt !== null,
      createdAt: dateOf(m.createdAt).toISOString(),
    })),
    total,
    unread,
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}

export async function markRead(deps: AppDeps, session: Actor, ids: string[] | undefined) {
  const phone = await phoneOf(deps, session.userId);
  await q.markMessagesRead(deps.db, messageScope(session, phone), ids, deps.clock.now());
  const unread = await q.unreadCount(deps.db, messageScope(session, phone));
  return { unread };
}
