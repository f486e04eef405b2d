// Comments on a flow (issue 29) through the HTTP layer: parties comment by their signing room (roomToken) or
// their session, the launcher by its session; threads with replies, resolve and reopen; anchors checked against
// the flow's documents; each comment names the flow's revision; the others are told (/message, the outbox) and
// the webhook `comment.created` is stored with it; audit entries; another account and another flow's room get
// 1101; an ended flow refuses writing (1100) but stays readable; nothing is ever deleted.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  COMMENT_LIMITS,
  type CommentThread,
  addFlowComment,
  listFlowComments,
  setCommentThreadResolved,
} from '#contract/calls/comments.ts';
import { Code } from '#contract/codes.ts';
import {
  type RoomLogin,
  cancelFlow,
  getAuditTrail,
  launchFlow,
  listMessages,
  signingRoomLogin,
  getFlowDetail,
  type FlowDetail,
} from '#contract/calls/flow.ts';
import { createWebhookEndpoint } from '#contract/calls/webhook.ts';
import { queryRows } from '#server/db/database.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { type Agent, appForFile } from '../helper.ts';
import { type Signer, contractPdf, ok, openByLink, personWithCert, uploadPdf } from '../fixtures/flow.ts';

const t = appForFile({ SMS_MAX_PER_PHONE_HOUR: '100', SMS_RESEND_SECONDS: '0' });
const EN = { headers: { 'accept-language': 'en-US' } };

let launcher: Signer;
let buyer: Signer;
let seller: Signer;
let stranger: Signer;
let pdf: Uint8Array;

type Listed = { revision: number; canWrite: boolean; threads: CommentThread[] };

beforeAll(async () => {
  launcher = await personWithCert(t, '周发起');
  buyer = await personWithCert(t, '钱买方', { seal: false, cert: false });
  seller = await personWithCert(t, '孙卖方', { seal: false, cert: false });
  stranger = await personWithCert(t, '吴路人', { seal: false, cert: false });
  pdf = await contractPdf(2);
  ok(
    await launcher.agent.call(createWebhookEndpoint, {
      userType: 0,
      url: 'http://127.0.0.1:9/comment-hook',
      events: ['comment.created'],
    }),
    'endpoint',
  );
}, 180_000);

/** The launcher sends a two-page contract to the buyer and the seller (one step). */
async function launchBoth(title = 'Negotiated contract') {
  const doc = ok(await uploadPdf(launcher.agent, pdf), 'upload');
  const res = await launcher.agent.call<{ flowId: string }>(launchFlow, {
    userType: 0,
    title,
    documentIds: [doc.documentId],
    steps: [
      {
        parties: [buyer, seller].map((p, i) => ({
          kind: 'person',
          name: p.name,
          phone: p.phone,
          positions: [
            {
              documentId: doc.documentId,
              page: 1,
              mm: { left: 20 + i * 60, top: 200, width: 40, height: 20 },
            },
          ],
        })),
      },
    ],
  });
  expect(res.body.code, res.body.msg).toBe(0);
  return { flowId: res.body.data.flowId, documentId: doc.documentId };
}

const list = (agent: Agent, flowId: string, roomToken?: string) =>
  agent.call<Listed>(listFlowComments, { userType: 0, flowId, roomToken });
const add = (agent: Agent, body: Record<string, unknown>) =>
  agent.call<CommentThread>(addFlowComment, { userType: 0, ...body }, EN);
const resolve = (agent: Agent, flowId: string, threadId: string, resolved: boolean, roomToken?: string) =>
  agent.call<CommentThread>(
    setCommentThreadResolved,
    { userType: 0, flowId, threadId, resolved, roomToken },
    EN,
  );
const countComments = async (flowId: string) =>
  Number(
    (
      await queryRows<{ n: number }>(
        t.db,
        sql`SELECT count(*)::int AS n FROM flow_comments WHERE flow_id = ${flowId}`,
      )
    )[0].n,
  );

describe('comments on an open flow', () => {
  let flowId: string;
  let documentId: string;
  let buyerRoom: RoomLogin;
  let threadId: string;

  test('a party comments from its signing room on a point of a page; the others are told', async () => {
    ({ flowId, documentId } = await launchBoth());
    buyerRoom = await openByLink(t, buyer.agent, buyer.phone);
    const empty = ok(await list(buyer.agent, flowId, buyerRoom.roomToken), 'list');
    expect(empty).toEqual({ revision: 1, canWrite: true, threads: [] });

    const thread = ok(
      await add(buyer.agent, {
        flowId,
        roomToken: buyerRoom.roomToken,
        body: 'Clause 3: the delivery date should be 30 days, not 10.',
        anchor: { documentId, page: 2, x: 120.5, y: 600 },
      }),
      'add',
    );
    threadId = thread.threadId;
    expect(thread).toMatchObject({
      threadId: thread.commentId,
      author: { role: 'party', partyNumber: 1, name: '钱买方' },
      revision: 1,
      anchor: { documentId, page: 2, x: 120.5, y: 600 },
      replies: [],
      resolvedAt: null,
    });

    // the launcher's /message list, and the seller's notice in the outbox; the buyer is not told
    const msgs = ok(
      await launcher.agent.call<{ list: { kind: string; flowId: string; link: string; text: string }[] }>(
        listMessages,
        { userType: 0 },
      ),
      'messages',
    );
    const notice = msgs.list.find((m) => m.kind === 'comment' && m.flowId === flowId);
    expect(notice?.link).toBe(`/signList?flowId=${flowId}`);
    expect(notice?.text).toContain('Clause 3');
    const sellerOutbox = await listOutbox(t.db, { to: seller.phone });
    expect(sellerOutbox.some((m) => m.purpose === 'flow:comment' && m.text.includes('钱买方'))).toBe(true);
    expect((await listOutbox(t.db, { to: buyer.phone })).some((m) => m.purpose === 'flow:comment')).toBe(
      false,
    );

    // the webhook event is stored with the comment
    const hooks = await queryRows<{ body: unknown }>(
      t.db,
      sql`SELECT body FROM webhook_messages WHERE type = 'comment.created'`,
    );
    const mine = hooks.map((h) => String(typeof h.body === 'string' ? h.body : JSON.stringify(h.body)));
    const body = mine.find((b) => b.includes(thread.commentId));
    expect(body).toBeDefined();
    expect(body).toContain(flowId);
    expect(body).toContain('Clause 3');

    // an audit entry on the document
    const trail = ok(
      await launcher.agent.call<{ entries: { event: string; detail: string | null }[] }>(getAuditTrail, {
        userType: 0,
        flowId,
      }),
      'trail',
    );
    expect(trail.entries.find((e) => e.event === 'comment')?.detail).toBe(
      `comment ${thread.commentId} · revision 1 · page 2`,
    );
    // and in Chinese
    const zhTrail = ok(
      await launcher.agent.call<{ entries: { event: string; detail: string | null }[] }>(
        getAuditTrail,
        { userType: 0, flowId },
        { headers: { 'accept-language': 'zh-CN' } },
      ),
      'zh trail',
    );
    expect(zhTrail.entries.find((e) => e.event === 'comment')?.detail).toBe(
      `评论 ${thread.commentId} · 第 1 版 · 第 2 页`,
    );
  });

  test('the other party replies by session; the launcher reads both, resolves and reopens', async () => {
    const reply = ok(await add(seller.agent, { flowId, threadId, body: 'Agreed: 30 days.' }), 'reply');
    expect(reply.replies).toHaveLength(1);
    expect(reply.replies[0]).toMatchObject({
      author: { role: 'party', partyNumber: 2, name: '孙卖方' },
      body: 'Agreed: 30 days.',
      revision: 1,
    });
    // the launcher's own root comment, on the whole flow
    const own = ok(await add(launcher.agent, { flowId, body: 'Please read the whole contract.' }), 'root');
    expect(own.author).toMatchObject({ role: 'launcher', partyNumber: null });
    expect(own.author.name).toContain('周发起');
    expect(own.anchor).toBeNull();
    const seen = ok(await list(launcher.agent, flowId), 'launcher list');
    expect(seen.threads.map((x) => x.threadId)).toEqual([threadId, own.threadId]);
    expect(seen.threads[0].replies.map((r) => r.body)).toEqual(['Agreed: 30 days.']);

    const resolved = ok(await resolve(launcher.agent, flowId, threadId, true), 'resolve');
    expect(resolved.resolvedAt).not.toBeNull();
    expect(resolved.resolvedBy).toContain('周发起');
    const reopened = ok(await resolve(buyer.agent, flowId, threadId, false, buyerRoom.roomToken), 'reopen');
    expect(reopened.resolvedAt).toBeNull();
    ok(await resolve(launcher.agent, flowId, threadId, true), 'resolve again');
    const trail = ok(
      await launcher.agent.call<{ entries: { event: string; detail: string | null }[] }>(getAuditTrail, {
        userType: 0,
        flowId,
      }),
      'trail',
    );
    expect(trail.entries.filter((e) => e.event === 'comment_resolve').map((e) => e.detail)).toEqual([
      `thread ${threadId} · resolved`,
      `thread ${threadId} · reopened`,
      `thread ${threadId} · resolved`,
    ]);
  });

  test('anchors are checked against the flow; a reply has none; the body is limited', async () => {
    const other = await launchBoth('Another');
    const tooFar = await add(launcher.agent, {
      flowId,
      body: 'x',
      anchor: { documentId, page: 3, x: 1, y: 1 },
    });
    expect(tooFar.body.code).toBe(Code.Refused);
    expect(tooFar.body.msg).toMatch(/has 2 pages/);
    const pointOnly = await add(launcher.agent, {
      flowId,
      body: 'x',
      anchor: { documentId, page: null, x: 1, y: 1 },
    });
    expect(pointOnly.body.code).toBe(Code.Refused);
    const otherDoc = await add(launcher.agent, {
      flowId,
      body: 'x',
      anchor: { documentId: other.documentId, page: 1, x: 1, y: 1 },
    });
    expect(otherDoc.body.code).toBe(Code.NotFound);
    const replyWithPlace = await add(launcher.agent, {
      flowId,
      threadId,
      body: 'x',
      anchor: { documentId, page: 1, x: 1, y: 1 },
    });
    expect(replyWithPlace.body.code).toBe(Code.Refused);
    // a thread of another flow is not found
    const foreign = ok(
      await add(launcher.agent, { flowId: other.flowId, body: 'elsewhere' }),
      'foreign root',
    );
    const crossReply = await add(launcher.agent, { flowId, threadId: foreign.threadId, body: 'x' });
    expect(crossReply.body.code).toBe(Code.NotFound);
    const long = await add(launcher.agent, { flowId, body: 'x'.repeat(COMMENT_LIMITS.body + 1) });
    expect(long.body.code).not.toBe(0);
    const blank = await add(launcher.agent, { flowId, body: '   ' });
    expect(blank.body.code).not.toBe(0);
  });

  test('another account and another flow’s room get 1101; a room token reads its own flow only', async () => {
    expect((await list(stranger.agent, flowId)).body.code).toBe(Code.NotFound);
    expect((await add(stranger.agent, { flowId, body: 'hello' })).body.code).toBe(Code.NotFound);
    expect((await resolve(stranger.agent, flowId, threadId, false)).body.code).toBe(Code.NotFound);
    const other = await launchBoth('Third');
    // the buyer's room of this flow names another flow: refused, whatever the session could read
    expect((await list(stranger.agent, other.flowId, buyerRoom.roomToken)).body.code).toBe(Code.NotFound);
    expect(
      (await add(stranger.agent, { flowId: other.flowId, roomToken: buyerRoom.roomToken, body: 'x' })).body
        .code,
    ).toBe(Code.NotFound);
    // with the room token, a browser without a session reads the room's flow
    expect(ok(await list(stranger.agent, flowId, buyerRoom.roomToken), 'room list').threads).toHaveLength(2);
    // an unknown token
    expect((await list(stranger.agent, flowId, 'x'.repeat(32))).body.code).toBe(Code.RoomTokenInvalid);
  });

  test('each comment names the revision it was made on; earlier ones stay', async () => {
    await t.db.execute(sql`UPDATE flows SET revision = 2 WHERE id = ${flowId}`);
    const later = ok(
      await add(seller.agent, {
        flowId,
        body: 'On the revised text: fine.',
        anchor: { documentId, page: 1, x: 50, y: 50 },
      }),
      'rev 2',
    );
    expect(later.revision).toBe(2);
    const all = ok(await list(buyer.agent, flowId, buyerRoom.roomToken), 'list');
    expect(all.revision).toBe(2);
    expect(all.threads.map((x) => x.revision)).toEqual([1, 1, 2]);
  });

  test('an ended flow refuses writing (1100) and stays readable; nothing is deleted', async () => {
    const before = await countComments(flowId);
    ok(await launcher.agent.call(cancelFlow, { userType: 0, flowId, reason: 'renegotiate' }), 'cancel');
    const refused = await add(buyer.agent, { flowId, roomToken: buyerRoom.roomToken, body: 'too late' });
    expect(refused.body.code).toBe(Code.Refused);
    expect(refused.body.msg).toMatch(/cancelled: comments can no longer be written/);
    expect((await resolve(launcher.agent, flowId, threadId, false)).body.code).toBe(Code.Refused);
    expect((await add(seller.agent, { flowId, threadId, body: 'late reply' })).body.code).toBe(Code.Refused);
    const still = ok(await list(launcher.agent, flowId), 'list after end');
    expect(still.canWrite).toBe(false);
    expect(still.threads).toHaveLength(3);
    expect(still.threads[0].resolvedAt).not.toBeNull();
    expect(await countComments(flowId)).toBe(before);
  });
});

describe('the rate of comments', () => {
  test(`at most ${COMMENT_LIMITS.perHour} comments an hour per author and flow`, async () => {
    const { flowId } = await launchBoth('Busy');
    const d = ok(await seller.agent.call<FlowDetail>(getFlowDetail, { userType: 0, flowId }), 'detail');
    const room = ok(
      await seller.agent.call<RoomLogin>(signingRoomLogin, {
        userType: 0,
        flowId,
        partyId: d.mine.myPendingPartyIds[0],
      }),
      'room',
    );
    for (let i = 0; i < COMMENT_LIMITS.perHour; i++)
      ok(await add(seller.agent, { flowId, roomToken: room.roomToken, body: `note ${i}` }), `comment ${i}`);
    const over = await add(seller.agent, { flowId, roomToken: room.roomToken, body: 'one more' });
    expect(over.body.code).toBe(Code.RateLimited);
    // another author is not held back
    ok(await add(launcher.agent, { flowId, body: 'launcher still writes' }), 'launcher');
    t.clock.advance(3_600_000);
    ok(await add(seller.agent, { flowId, roomToken: room.roomToken, body: 'an hour later' }), 'later');
  }, 120_000);
});
