// Comments on a flow (issue 29: negotiate before signing), SQL in comments-queries.ts. Whoever may read the
// flow (flowAccess: the launching account's users, its parties by session, a party's signing room by its
// roomToken) reads every thread of every revision; while the flow is open they comment (a root pinned to a
// point of a page, a document or the flow; or a reply), resolve and reopen. Each comment: an audit entry
// `comment` (resolve/reopen: `comment_resolve`), a notice to the others in the flow (/message, SMS, e-mail) and
// the webhook `comment.created` stored in the comment's transaction (the flow event outbox).
import { randomUUID } from 'node:crypto';
import type { CommentAnchor, CommentThread, FlowComment } from '#contract/calls/comments.ts';
import { COMMENT_LIMITS } from '#contract/calls/comments.ts';
import { Code } from '#contract/codes.ts';
import { hitCounter } from '../../db/rate-counter.ts';
import { dateOf, type Exec } from '../../db/sql-helpers.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import type { Actor } from '../../lib/actor.ts';
import { type AuditActor, appendAudit } from '../audit/index.ts';
import { flowDocuments } from '../document/index.ts';
import { findUserById } from '../session/index.ts';
import { flowAccess, sessionActor } from './access.ts';
import * as cq from './comments-queries.ts';
import { C } from './comments-texts.ts';
import { expireIfDue } from './end.ts';
import { storeFlowEvent } from './events.ts';
import type { FlowEventComment } from './hooks.ts';
import { type Flow, type Party, maskPhone, partiesOf } from './model.ts';
import { insertMessage } from './queries.ts';
import { type Room, roomActor } from './room.ts';

/** Who calls: a signing room (one party), or a session. */
export type CommentCaller = { room: Room } | { session: Actor };
type Ctx = { ip?: string; userAgent?: string | null };

type Author = {
  role: 'launcher' | 'party';
  party: Party | null;
  partyNumber: number | null;
  name: string;
  userId: string | null;
  audit: AuditActor;
};

const HOUR_MS = 3_600_000;
const ENDED = ['completed', 'declined', 'cancelled', 'expired'];

const partyName = (p: Party) =>
  p.kind === 'company'
    ? [p.companyName, p.name].filter(Boolean).join(' · ') || maskPhone(p.phone)
    : (p.name ?? maskPhone(p.phone));

/** The flow as the caller may read it, its parties in the flow's order, and who the caller writes as. */
async function callerOf(deps: AppDeps, caller: CommentCaller, flowId: string, ctx: Ctx) {
  await expireIfDue(deps, flowId);
  const reader =
    'room' in caller
      ? { room: { partyId: caller.room.partyId, flowId: caller.room.flowId } }
      : { session: caller.session };
  const access = await flowAccess(deps, reader, flowId);
  const parties = (await partiesOf(deps.db, flowId)).toSorted(
    (a, b) => a.stepIndex - b.stepIndex || a.ord - b.ord,
  );
  const numberOf = (p: Party) => parties.findIndex((x) => x.id === p.id) + 1;
  const asParty = async (p: Party): Promise<Author> => ({
    role: 'party',
    party: p,
    partyNumber: numberOf(p),
    name: partyName(p),
    userId: 'room' in caller ? caller.room.userId : caller.session.userId,
    audit:
      'room' in caller
        ? await roomActor(deps, caller.room, p, ctx)
        : await sessionActor(deps, caller.session, ctx, p.companyName),
  });
  let author: Author;
  if ('room' in caller) author = await asParty(parties.find((p) => p.id === caller.room.partyId)!);
  else if (access.isInitiator) {
    const audit = await sessionActor(deps, caller.session, ctx, access.flow.initiatorCompanyName);
    author = {
      role: 'launcher',
      party: null,
      partyNumber: null,
      name: [access.flow.initiatorCompanyName, audit.actor].filter(Boolean).join(' · '),
      userId: caller.session.userId,
      audit,
    };
  } else author = await asParty(parties.find((p) => access.partyIds.includes(p.id))!);
  return { flow: access.flow, parties, author };
}

/** Writing needs an open flow that was sent (1100 otherwise, naming how it ended). */
function writeRefusal(flow: Flow): AppError | null {
  if (ENDED.includes(flow.status)) return new AppError(Code.Refused, C.flowEnded(flow.status));
  if (flow.heldForApproval) return new AppError(Code.Refused, C.notOpenYet);
  return null;
}

const present = (r: cq.CommentRow): FlowComment => ({
  commentId: r.id,
  author: { role: r.authorRole, partyNumber: null, name: r.authorName },
  body: r.body,
  revision: Number(r.revision),
  createdAt: dateOf(r.createdAt).toISOString(),
});

/** Threads of the rows (roots in order, each with its replies); party numbers from the flow's order. */
function threadsOf(rows: cq.CommentRow[], parties: Party[]): CommentThread[] {
  const numberOf = (id: string | null) => (id ? parties.findIndex((p) => p.id === id) + 1 || null : null);
  const withNumber = (r: cq.CommentRow): FlowComment => {
    const c = present(r);
    return { ...c, author: { ...c.author, partyNumber: numberOf(r.authorPartyId) } };
  };
  return rows
    .filter((r) => r.parentId === null)
    .map((root) => ({
      ...withNumber(root),
      threadId: root.id,
      anchor: root.documentId
        ? {
            documentId: root.documentId,
            page: root.page === null ? null : Number(root.page),
            x: root.x === null ? null : Number(root.x),
            y: root.y === null ? null : Number(root.y),
          }
        : null,
      replies: rows.filter((r) => r.threadId === root.id && r.parentId !== null).map(withNumber),
      resolvedAt: root.resolvedAt ? dateOf(root.resolvedAt).toISOString() : null,
      resolvedBy: root.resolvedBy,
    }));
}

/** listFlowComments: every thread of the flow, every revision. */
export async function listComments(deps: AppDeps, caller: CommentCaller, flowId: string, ctx: Ctx) {
  const { flow, parties } = await callerOf(deps, caller, flowId, ctx);
  return {
    revision: await cq.revisionOf(deps.db, flowId),
    canWrite: writeRefusal(flow) === null,
    threads: threadsOf(await cq.commentsOfFlow(deps.db, flowId), parties),
  };
}

async function threadOf(ex: Exec, flowId: string, threadId: string, parties: Party[]) {
  const [t] = threadsOf(await cq.commentsOfThread(ex, flowId, threadId), parties);
  if (!t) throw new AppError(Code.NotFound, C.threadNotFound);
  return t;
}

/** The anchor checked against the flow's documents (1100 for a page or point that does not fit). */
async function checkedAnchor(deps: AppDeps, flowId: string, a: CommentAnchor | undefined) {
  const docs = await flowDocuments(deps.db, flowId);
  if (!a) return { anchor: null, auditDocumentId: docs[0].id };
  const doc = docs.find((d) => d.id === a.documentId);
  if (!doc) throw new AppError(Code.NotFound, C.documentNotFound);
  if (a.page === null && (a.x !== null || a.y !== null)) throw new AppError(Code.Refused, C.pointWithoutPage);
  if (a.page !== null && a.page > doc.pages) throw new AppError(Code.Refused, C.pageOutOfRange(doc.pages));
  if ((a.x === null) !== (a.y === null)) throw new AppError(Code.Refused, C.pointWithoutPage);
  return { anchor: a, auditDocumentId: doc.id };
}

/** addFlowComment: a root or a reply; the others told, the audit entry and the webhook event stored with it. */
export async function addComment(
  deps: AppDeps,
  caller: CommentCaller,
  body: { flowId: string; body: string; threadId?: string; anchor?: CommentAnchor },
  ctx: Ctx,
): Promise<CommentThread> {
  const { flow, parties, author } = await callerOf(deps, caller, body.flowId, ctx);
  const refusal = writeRefusal(flow);
  if (refusal) throw refusal;
  if (body.threadId && body.anchor) throw new AppError(Code.Refused, C.replyHasNoAnchor);
  const root = body.threadId ? await cq.findRoot(deps.db, flow.id, body.threadId) : null;
  if (body.threadId && !root) throw new AppError(Code.NotFound, C.threadNotFound);
  const { anchor, auditDocumentId } = root
    ? { anchor: null, auditDocumentId: root.documentId ?? (await flowDocuments(deps.db, flow.id))[0].id }
    : await checkedAnchor(deps, flow.id, body.anchor);
  const now = deps.clock.now();
  const who = author.party ? `party:${author.party.id}` : `launcher:${author.userId}`;
  if ((await hitCounter(deps.db, `comment:${flow.id}:${who}`, HOUR_MS, now)) > COMMENT_LIMITS.perHour)
    throw new AppError(Code.RateLimited, C.tooMany(COMMENT_LIMITS.perHour));
  const id = randomUUID();
  const threadId = root?.id ?? id;
  const after = await deps.db.transaction(async (tx) => {
    const revision = await cq.revisionOf(tx, flow.id);
    await cq.insertComment(
      tx,
      {
        id,
        flowId: flow.id,
        threadId,
        parentId: root?.id ?? null,
        revision,
        documentId: anchor?.documentId ?? null,
        page: anchor?.page ?? null,
        x: anchor?.x ?? null,
        y: anchor?.y ?? null,
        authorRole: author.role,
        authorPartyId: author.party?.id ?? null,
        authorUserId: author.userId,
        authorName: author.name,
        body: body.body,
      },
      now,
    );
    const place = anchor?.page ? ` · page ${anchor.page}` : '';
    await appendAudit(tx, {
      ...author.audit,
      flowId: flow.id,
      documentId: auditDocumentId,
      event: 'comment',
      detail: `comment ${id} · revision ${revision}${root ? ` · reply to ${root.id}` : place}`,
      at: now,
    });
    const comment: FlowEventComment = {
      commentId: id,
      threadId,
      revision,
      author: { role: author.role, partyNumber: author.partyNumber, name: author.name },
      body: body.body,
      anchor,
    };
    return storeFlowEvent(deps, tx, 'comment.created', flow, {
      ...(author.party ? { party: author.party } : {}),
      comment,
    });
  });
  await after();
  await tellOthers(deps, flow, parties, author, body.body);
  return threadOf(deps.db, flow.id, threadId, parties);
}

/** setCommentThreadResolved: resolves or reopens a thread (an audit entry when it changed). */
export async function setResolved(
  deps: AppDeps,
  caller: CommentCaller,
  body: { flowId: string; threadId: string; resolved: boolean },
  ctx: Ctx,
): Promise<CommentThread> {
  const { flow, parties, author } = await callerOf(deps, caller, body.flowId, ctx);
  const refusal = writeRefusal(flow);
  if (refusal) throw refusal;
  const root = await cq.findRoot(deps.db, flow.id, body.threadId);
  if (!root) throw new AppError(Code.NotFound, C.threadNotFound);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const by = { at: now, by: author.name };
    if (!(await cq.setResolved(tx, flow.id, root.id, body.resolved ? by : null))) return;
    await appendAudit(tx, {
      ...author.audit,
      flowId: flow.id,
      documentId: root.documentId ?? (await flowDocuments(tx, flow.id))[0].id,
      event: 'comment_resolve',
      detail: `thread ${root.id} · ${body.resolved ? 'resolved' : 'reopened'}`,
      at: now,
    });
  });
  return threadOf(deps.db, flow.id, root.id, parties);
}

/**
 * The notice of a new comment to everyone else in the flow: the launcher (unless the launcher wrote) and
 * every party that was sent the contract (not the author's party): a /message row, and SMS and e-mail as the
 * flow's other notices go (messaging decides the channels a person has).
 */
async function tellOthers(deps: AppDeps, flow: Flow, parties: Party[], author: Author, text: string) {
  const excerpt = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  const { title, text: noticeText } = C.notice(author.name, flow.title, excerpt);
  const link = `/signList?flowId=${flow.id}`;
  const targets: { phone: string; companyId: string | null }[] = [];
  if (author.role !== 'launcher') {
    const initiator = await findUserById(deps.db, flow.initiatorUserId);
    if (initiator)
      targets.push({ phone: initiator.phone, companyId: flow.ownerType === 1 ? flow.ownerId : null });
  }
  for (const p of parties)
    if (p.id !== author.party?.id && p.sentAt) targets.push({ phone: p.phone, companyId: p.companyId });
  const seen = new Set<string>();
  const now = deps.clock.now();
  for (const t of targets) {
    const key = `${t.phone}|${t.companyId}`;
    if (seen.has(key) || t.phone === author.audit.actorPhone) continue;
    seen.add(key);
    await insertMessage(deps.db, {
      ...t,
      kind: 'comment',
      title,
      text: noticeText,
      flowId: flow.id,
      link,
      now,
    });
    await deps.messenger.notify({
      to: t.phone,
      purpose: 'flow:comment',
      text: `${noticeText} ${deps.config.publicUrl}/#${link}`,
      mail: {
        kind: 'comment',
        flowTitle: flow.title,
        who: author.name,
        link: `${deps.config.publicUrl}/#${link}`,
      },
    });
  }
}
