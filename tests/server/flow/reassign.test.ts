// Reassign (转交), deadline change and copy link (issue 29) through the HTTP layer: a person party hands its turn
// to someone else from its room (the old link and room then refuse as "handed over", the new signer gets the link
// and signs), the launcher reassigns from the flow detail, a party the launcher forbade cannot, signed and ended
// parties cannot, another account gets 1101; a company party goes only to an administrator or handler of the
// same company; the deadline rules; a copied link is answered once, logged and opens the room; the webhook
// events are stored with the change.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  type AuditEntry,
  type FlowDetail,
  type RoomLogin,
  cancelFlow,
  getAuditTrail,
  getFlowDetail,
  getSigningRoom,
  sendLinkSmsCode,
  signingRoomLogin,
  signingRoomLoginByLinkCode,
} from '#contract/calls/flow.ts';
import {
  type ReassignCandidate,
  type Reassignment,
  changeFlowDeadline,
  copySigningLink,
  listReassignCandidates,
  listReassignments,
  reassignParty,
} from '#contract/calls/reassign.ts';
import { WEBHOOK_EVENTS, type WebhookEndpoint, createWebhookEndpoint } from '#contract/calls/webhook.ts';
import { Code } from '#contract/codes.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { type Agent, appForFile } from '../helper.ts';
import {
  type Signer,
  type TestCompany,
  companyWithSeals,
  launchForOne,
  linkFor,
  ok,
  openByLink,
  personWithCert,
  sign,
  signByLink,
} from '../fixtures/flow.ts';
import { companyMember, launchForCompany, setRoles } from '../fixtures/roles.ts';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.ts';

const t = appForFile({ FREE_SIGNING_ALLOWANCE: '30', SMS_MAX_PER_PHONE_HOUR: '100' });
let alice: Signer;
let bob: Signer;
let carol: Signer;
let outsider: Signer;
let company: TestCompany;
let receiver: Receiver;

beforeAll(async () => {
  alice = await personWithCert(t, '李发起');
  bob = await personWithCert(t, '王原签');
  carol = await personWithCert(t, '陈新签');
  outsider = await personWithCert(t, '赵路人');
  company = await companyWithSeals(t);
  receiver = await startReceiver();
  for (const [agent, userType] of [
    [alice.agent, 0],
    [company.admin.agent, 1],
  ] as const)
    ok(
      await agent.call<WebhookEndpoint>(createWebhookEndpoint, {
        userType,
        url: receiver.url,
        events: [...WEBHOOK_EVENTS],
      }),
      'endpoint',
    );
}, 240_000);

const launchForBob = (party: Record<string, unknown> = {}) =>
  launchForOne(alice.agent, { name: bob.name, phone: bob.phone }, { title: '转交测试 reassign', party });

const detailOf = async (agent: Agent, flowId: string, userType = 0) =>
  ok(await agent.call<FlowDetail>(getFlowDetail, { userType, flowId }), 'detail');

const auditOf = async (agent: Agent, flowId: string) =>
  ok(await agent.call<{ entries: AuditEntry[] }>(getAuditTrail, { userType: 0, flowId }), 'audit').entries;

const rowsOf = async <R>(q: ReturnType<typeof sql>) =>
  ((await t.db.execute(q)) as unknown as { rows: R[] }).rows;

const webhookTypes = async (flowId: string) =>
  (
    await rowsOf<{ type: string }>(
      sql`SELECT type FROM webhook_messages WHERE body LIKE ${`%${flowId}%`} ORDER BY created_at`,
    )
  ).map((r) => r.type);

const lastText = async (phone: string) => (await listOutbox(t.db, { to: phone, limit: 5 }))[0]?.text ?? '';

describe('a person party hands its turn over from its room', () => {
  let flowId: string;
  let partyId: string;
  let room: RoomLogin;
  let oldLink: { linkType: number; linkCode: string };

  test('the reason is required; the reassignment readdresses the party', async () => {
    ({ flowId } = await launchForBob());
    oldLink = await linkFor(t, bob.phone);
    room = await openByLink(t, bob.agent, bob.phone);
    partyId = room.partyId;
    const to = { name: carol.name, phone: carol.phone };
    const noReason = await bob.agent.call(reassignParty, {
      userType: 0,
      flowId,
      partyId,
      roomToken: room.roomToken,
      to,
      reason: ' ',
    });
    expect(noReason.body.code).toBe(Code.BadRequest);
    const toSelf = await bob.agent.call(reassignParty, {
      userType: 0,
      flowId,
      partyId,
      roomToken: room.roomToken,
      to: { name: bob.name, phone: bob.phone },
      reason: '我不是经办人',
    });
    expect(toSelf.body.code).toBe(Code.Refused);
    const done = ok(
      await bob.agent.call<{ reassignmentId: string; partyStatus: string }>(reassignParty, {
        userType: 0,
        flowId,
        partyId,
        roomToken: room.roomToken,
        to,
        reason: '我在休假 on leave',
      }),
      'reassign',
    );
    expect(done.partyStatus).toBe('pending');
    const d = await detailOf(alice.agent, flowId);
    expect(d.steps[0].parties[0].name).toBe(carol.name);
    expect(d.steps[0].parties[0].phoneMasked).toBe(`${carol.phone.slice(0, 3)}****${carol.phone.slice(-4)}`);
    const h = ok(
      await alice.agent.call<{ items: Reassignment[] }>(listReassignments, { userType: 0, flowId }),
      'history',
    );
    expect(h.items).toHaveLength(1);
    expect(h.items[0]).toMatchObject({
      partyId,
      fromName: bob.name,
      toName: carol.name,
      reason: '我在休假 on leave',
      byRole: 'party',
    });
  });

  test('the old link and the old room refuse, saying it was handed over', async () => {
    const byLink = await bob.agent.call(sendLinkSmsCode, { userType: 0, ...oldLink, phone: bob.phone });
    expect(byLink.body.code).toBe(Code.LinkInvalid);
    expect(byLink.body.msg).toMatch(/handed over to 陈新签/);
    const byRoom = await bob.agent.call(getSigningRoom, { userType: 0, roomToken: room.roomToken });
    expect(byRoom.body.code).toBe(Code.RoomTokenInvalid);
    expect(byRoom.body.msg).toMatch(/handed over/);
    // The old link with the new signer's phone does not work either: the link itself is gone.
    const carolOnOld = await carol.agent.call(sendLinkSmsCode, {
      userType: 0,
      ...oldLink,
      phone: carol.phone,
    });
    expect(carolOnOld.body.code).toBe(Code.LinkInvalid);
  });

  test('the old signer and the launcher are told; the new signer signs from the new link', async () => {
    expect(await lastText(bob.phone)).toMatch(/handed the signing/);
    expect(await lastText(alice.phone)).toMatch(/handed the signing/);
    const newLink = await linkFor(t, carol.phone);
    expect(newLink.linkCode).not.toBe(oldLink.linkCode);
    const signed = ok(await signByLink(t, carol.agent, carol), 'sign');
    expect(signed.flowStatus).toBe('completed');
  });

  test('the audit trail and the webhooks say who, to whom, why', async () => {
    const entry = (await auditOf(alice.agent, flowId)).find((e) => e.event === 'reassign');
    expect(entry?.detail).toContain('陈新签');
    expect(entry?.detail).toContain('on leave');
    expect(entry?.actorPhoneMasked).toBe(`${bob.phone.slice(0, 3)}****${bob.phone.slice(-4)}`);
    expect(await webhookTypes(flowId)).toContain('party.reassigned');
  });

  test('a signed party and an ended flow cannot be reassigned', async () => {
    const res = await alice.agent.call(reassignParty, {
      userType: 0,
      flowId,
      partyId,
      to: { name: bob.name, phone: bob.phone },
      reason: 'again',
    });
    expect(res.body.code).toBe(Code.FlowClosed);
    const other = await launchForBob();
    const p = (await detailOf(alice.agent, other.flowId)).steps[0].parties[0].partyId;
    ok(await alice.agent.call(cancelFlow, { userType: 0, flowId: other.flowId, reason: 'test' }), 'cancel');
    const ended = await alice.agent.call(reassignParty, {
      userType: 0,
      flowId: other.flowId,
      partyId: p,
      to: { name: carol.name, phone: carol.phone },
      reason: 'ended',
    });
    expect(ended.body.code).toBe(Code.FlowClosed);
  });
});

describe('who may reassign', () => {
  test('the launcher from the flow detail; another account 1101; the party by its session', async () => {
    const { flowId } = await launchForBob();
    const partyId = (await detailOf(alice.agent, flowId)).steps[0].parties[0].partyId;
    const body = {
      userType: 0,
      flowId,
      partyId,
      to: { name: carol.name, phone: carol.phone },
      reason: '换人',
    };
    const stranger = await outsider.agent.call(reassignParty, body);
    expect(stranger.body.code).toBe(Code.NotFound);
    const strangerHistory = await outsider.agent.call(listReassignments, { userType: 0, flowId });
    expect(strangerHistory.body.code).toBe(Code.NotFound);
    // bob, the party, by its own session
    ok(await bob.agent.call(reassignParty, body), 'by party session');
    // bob is no longer the party: 1101 now
    const gone = await bob.agent.call(reassignParty, { ...body, to: { name: bob.name, phone: bob.phone } });
    expect(gone.body.code).toBe(Code.NotFound);
    // the launcher hands it back
    ok(
      await alice.agent.call(reassignParty, {
        ...body,
        to: { name: bob.name, phone: bob.phone },
        reason: '还原',
      }),
      'by launcher',
    );
    const h = ok(
      await alice.agent.call<{ items: Reassignment[] }>(listReassignments, { userType: 0, flowId }),
      'history',
    );
    expect(h.items.map((i) => i.byRole)).toEqual(['party', 'launcher']);
    // bob is told it is his turn again: a fresh link works
    const room = await openByLink(t, bob.agent, bob.phone);
    expect(room.partyId).toBe(partyId);
  });

  test('a party is handed over five times at most', async () => {
    const { flowId } = await launchForBob();
    const partyId = (await detailOf(alice.agent, flowId)).steps[0].parties[0].partyId;
    const people = [carol, bob];
    for (let i = 0; i < 5; i++)
      ok(
        await alice.agent.call(reassignParty, {
          userType: 0,
          flowId,
          partyId,
          to: { name: people[i % 2].name, phone: people[i % 2].phone },
          reason: `round ${i}`,
        }),
        `round ${i}`,
      );
    const sixth = await alice.agent.call(reassignParty, {
      userType: 0,
      flowId,
      partyId,
      to: { name: outsider.name, phone: outsider.phone },
      reason: 'one more',
    });
    expect(sixth.body.code).toBe(Code.Refused);
    expect(sixth.body.msg).toMatch(/5 times/);
  });

  test('a party the launcher forbade cannot be reassigned, by anyone', async () => {
    const { flowId } = await launchForBob({ allowReassign: false });
    const d = await detailOf(alice.agent, flowId);
    const h = ok(
      await alice.agent.call<{ parties: { partyId: string; allowReassign: boolean }[] }>(listReassignments, {
        userType: 0,
        flowId,
      }),
      'history',
    );
    expect(h.parties).toEqual([{ partyId: d.steps[0].parties[0].partyId, allowReassign: false }]);
    for (const agent of [alice.agent, bob.agent]) {
      const res = await agent.call(reassignParty, {
        userType: 0,
        flowId,
        partyId: d.steps[0].parties[0].partyId,
        to: { name: carol.name, phone: carol.phone },
        reason: 'not allowed',
      });
      expect(res.body.code).toBe(Code.Refused);
      expect(res.body.msg).toMatch(/does not allow/);
    }
  });
});

describe('a company party goes to another handler of the same company', () => {
  test('candidates are the administrator and handlers; a member without the role is refused', async () => {
    const admin = company.admin.agent;
    const plain = await companyMember(t, admin, company.id, '钱无权');
    await setRoles(admin, plain.userId, []);
    const handler = await companyMember(t, admin, company.id, '孙经办');
    const flowId = await launchForCompany(admin, company.id, company.operator.phone, '企业转交');
    const partyId = (await detailOf(admin, flowId, 1)).steps[0].parties[0].partyId;
    const room = ok(
      await company.operator.agent.call<RoomLogin>(signingRoomLogin, { userType: 1, flowId, partyId }),
      'room',
    );
    const c = ok(
      await company.operator.agent.call<{ candidates: ReassignCandidate[] }>(listReassignCandidates, {
        userType: 1,
        flowId,
        partyId,
        roomToken: room.roomToken,
      }),
      'candidates',
    );
    const ids = c.candidates.map((x) => x.userId);
    expect(ids).toContain(company.admin.userId);
    expect(ids).toContain(handler.userId);
    expect(ids).not.toContain(plain.userId);
    expect(ids).not.toContain(company.operator.userId);
    const base = { userType: 1, flowId, partyId, roomToken: room.roomToken, reason: '出差 travelling' };
    const toPlain = await company.operator.agent.call(reassignParty, {
      ...base,
      to: { userId: plain.userId },
    });
    expect(toPlain.body.code).toBe(Code.Refused);
    expect(toPlain.body.msg).toMatch(/administrator or contract handler/);
    const byPhone = await company.operator.agent.call(reassignParty, {
      ...base,
      to: { name: 'x', phone: carol.phone },
    });
    expect(byPhone.body.code).toBe(Code.Refused);
    ok(
      await company.operator.agent.call(reassignParty, { ...base, to: { userId: handler.userId } }),
      'to handler',
    );
    const d = await detailOf(admin, flowId, 1);
    expect(d.steps[0].parties[0].name).toBe('孙经办');
    // the handler got the link; the operator's room is closed
    expect((await linkFor(t, handler.phone)).linkCode).toBeTruthy();
    const old = await company.operator.agent.call(getSigningRoom, { userType: 1, roomToken: room.roomToken });
    expect(old.body.code).toBe(Code.RoomTokenInvalid);
    expect(await webhookTypes(flowId)).toContain('party.reassigned');
  });
});

describe('deadline change', () => {
  test('only the launcher, at least an hour ahead, within a year; the notice is armed again', async () => {
    const { flowId } = await launchForBob();
    const now = t.clock.now().getTime();
    const iso = (ms: number) => new Date(now + ms).toISOString();
    const call = (agent: Agent, ms: number) =>
      agent.call<{ deadline: string }>(changeFlowDeadline, { userType: 0, flowId, deadline: iso(ms) });
    expect((await call(alice.agent, -60_000)).body.code).toBe(Code.Refused);
    expect((await call(alice.agent, 30 * 60_000)).body.code).toBe(Code.Refused);
    expect((await call(alice.agent, 400 * 86_400_000)).body.code).toBe(Code.Refused);
    expect((await call(outsider.agent, 3 * 86_400_000)).body.code).toBe(Code.NotFound);
    expect((await call(bob.agent, 3 * 86_400_000)).body.code).toBe(Code.Refused);
    // The day-before notice went out already (claimed); a new deadline arms it again.
    await t.db.execute(sql`UPDATE flows SET deadline_notice_at = now() WHERE id = ${flowId}`);
    const moved = ok(await call(alice.agent, 20 * 86_400_000), 'extend');
    expect(moved.deadline).toBe(iso(20 * 86_400_000));
    const [row] = await rowsOf<{ deadline_notice_at: unknown }>(
      sql`SELECT deadline_notice_at FROM flows WHERE id = ${flowId}`,
    );
    expect(row.deadline_notice_at).toBeNull();
    expect((await detailOf(alice.agent, flowId)).deadline).toBe(moved.deadline);
    expect(await lastText(bob.phone)).toMatch(/signing deadline of "转交测试 reassign" is now/);
    // Shortened to within a day: this notice is the day-before one.
    ok(await call(alice.agent, 2 * 60 * 60_000), 'shorten');
    const [row2] = await rowsOf<{ deadline_notice_at: unknown }>(
      sql`SELECT deadline_notice_at FROM flows WHERE id = ${flowId}`,
    );
    expect(row2.deadline_notice_at).not.toBeNull();
    const entries = (await auditOf(alice.agent, flowId)).filter((e) => e.event === 'deadline_change');
    expect(entries).toHaveLength(2);
    expect(await webhookTypes(flowId)).toContain('flow.deadline_changed');
    // An ended flow: 1311.
    ok(await alice.agent.call(cancelFlow, { userType: 0, flowId, reason: 'done' }), 'cancel');
    expect((await call(alice.agent, 3 * 86_400_000)).body.code).toBe(Code.FlowClosed);
  });
});

describe('copy a signing link', () => {
  test('a fresh link shown once, logged, that opens the room; refused for others and signed parties', async () => {
    const { flowId } = await launchForBob();
    const partyId = (await detailOf(alice.agent, flowId)).steps[0].parties[0].partyId;
    expect((await outsider.agent.call(copySigningLink, { userType: 0, flowId, partyId })).body.code).toBe(
      Code.NotFound,
    );
    expect((await bob.agent.call(copySigningLink, { userType: 0, flowId, partyId })).body.code).toBe(
      Code.Refused,
    );
    const copied = ok(
      await alice.agent.call<{ link: string; url: string }>(copySigningLink, {
        userType: 0,
        flowId,
        partyId,
      }),
      'copy',
    );
    const m = /^\/singingRoom\/(\d)\/([A-Za-z0-9_-]+)$/.exec(copied.link);
    expect(m).not.toBeNull();
    expect(copied.url.endsWith(`/#${copied.link}`)).toBe(true);
    const code = m![2];
    // Never stored or answered again: only its hash is kept, and nothing the launcher reads carries it.
    const stored = JSON.stringify(await rowsOf(sql`SELECT * FROM party_links`));
    expect(stored).not.toContain(code);
    const reads = JSON.stringify([
      await detailOf(alice.agent, flowId),
      await auditOf(alice.agent, flowId),
      ok(await alice.agent.call(listReassignments, { userType: 0, flowId }), 'history'),
    ]);
    expect(reads).not.toContain(code);
    const entry = (await auditOf(alice.agent, flowId)).find((e) => e.event === 'link_copied');
    expect(entry?.actor).toBe(alice.name);
    expect(entry?.detail).toContain(bob.name);
    // The copied link opens the room (with the party's SMS code).
    const link = { linkType: Number(m![1]), linkCode: code };
    ok(await bob.agent.call(sendLinkSmsCode, { userType: 0, ...link, phone: bob.phone }), 'link sms');
    const smsCode = await t.smsCodeFor(bob.phone, 'roomLogin');
    const room = ok(
      await bob.agent.call<RoomLogin>(signingRoomLoginByLinkCode, {
        userType: 0,
        ...link,
        phone: bob.phone,
        smsCode,
      }),
      'login',
    );
    ok(await sign(t, bob.agent, room, bob.phone, { personSealId: bob.sealId ?? undefined }), 'sign');
    const after = await alice.agent.call(copySigningLink, { userType: 0, flowId, partyId });
    expect(after.body.code).toBe(Code.FlowClosed);
  });
});
