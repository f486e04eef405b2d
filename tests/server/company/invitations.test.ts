// Issue 6: operators are invited, not added. Through the real HTTP calls: the administrator invites a
// phone, the phone gets an SMS (the development outbox) and a /message notice, and only the phone's own
// account, by accepting within the lifetime, becomes an operator.
import { describe, expect, it } from 'vitest';
import {
  type CompanyEvent,
  type CompanyInvitation,
  addCompanyOperator,
  answerCompanyInvitation,
  getCompanyAuditTrail,
  getCompanyInvitation,
  getCompanyInvitationList,
  getCompanyMemberList,
  getMyCompanyInvitations,
  getMyCompanyList,
  resendCompanyInvitation,
  switchAccount,
  withdrawCompanyInvitation,
} from '#contract/calls/company.ts';
import { listMessages } from '#contract/calls/flow.ts';
import { userLogin, userOperatorLogin } from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { listOutbox } from '#server/messaging/messenger.ts';
import { appForFile, registerAndLogin, uniquePhone } from '../helper.ts';
import { type Person, openCompany, person } from '../fixtures/company.ts';

const t = appForFile();
const DAY = 86_400_000;

type Page<T> = { list: T[]; total: number };

async function invite(admin: Person, phone: string) {
  const r = await admin.agent.call<CompanyInvitation>(addCompanyOperator, { userType: 1, phone });
  expect(r.body.code, r.body.msg).toBe(0);
  return r.body.data;
}

const answer = (p: Person, invitationId: string, isAccepted: boolean) =>
  p.agent.call<CompanyInvitation>(answerCompanyInvitation, { userType: 0, invitationId, isAccepted });

const adminView = async (admin: Person) =>
  (await admin.agent.call<Page<CompanyInvitation>>(getCompanyInvitationList, { userType: 1 })).body.data.list;

const memberUserIds = async (admin: Person) =>
  (
    await admin.agent.call<Page<{ userId: string; status: string }>>(getCompanyMemberList, { userType: 1 })
  ).body.data.list.map((m) => `${m.userId}:${m.status}`);

async function logInAgain(p: Person, userType: number) {
  p.agent = t.agent();
  const r = await p.agent.call(userLogin, { userType, phone: p.phone, password: p.password });
  expect(r.body.code, r.body.msg).toBe(0);
}

const trail = async (admin: Person) =>
  (await admin.agent.call<Page<CompanyEvent>>(getCompanyAuditTrail, { userType: 1 })).body.data.list
    .map((e) => e.kind)
    .reverse();

describe('operator invitations', () => {
  it('invite: SMS and message to the phone, no membership until accepted, then an operator', async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const p = await person(t);

    const inv = await invite(admin, p.phone);
    expect(inv).toMatchObject({
      status: 'pending',
      role: 'operator',
      companyName: company.name,
      isRegistered: true,
    });
    expect(inv.phone).toBe(`${p.phone.slice(0, 3)}****${p.phone.slice(-4)}`);
    const lifetime = new Date(inv.expiresAt).getTime() - t.clock.now().getTime();
    expect(lifetime).toBeGreaterThan(7 * DAY - 60_000);
    expect(lifetime).toBeLessThanOrEqual(7 * DAY);

    // The SMS names the company and links to the invitation's screen.
    const [sms] = await listOutbox(t.db, { to: p.phone, limit: 1 });
    expect(sms).toMatchObject({ purpose: 'company:invitation' });
    expect(sms.text).toContain(company.name);
    expect(sms.text).toContain(`/#/companyInvitation/${inv.invitationId}`);

    // Nothing changed for the invitee yet: no membership, no company login, not in the member list.
    expect((await p.agent.call<unknown[]>(getMyCompanyList, { userType: 0 })).body.data).toEqual([]);
    const early = await t
      .agent()
      .call(userOperatorLogin, { userType: 1, phone: p.phone, password: p.password });
    expect(early.body.code).toBe(Code.Refused);
    expect(await memberUserIds(admin)).toEqual([`${admin.userId}:active`]);

    // The invitee's message list and invitation list show it.
    const msgs = await p.agent.call<{ list: { kind: string; link: string | null; title: string }[] }>(
      listMessages,
      { userType: 0 },
    );
    expect(msgs.body.data.list[0]).toMatchObject({
      kind: 'company_invitation',
      link: `/companyInvitation/${inv.invitationId}`,
    });
    expect(msgs.body.data.list[0].title).toContain(company.name);
    const mine = await p.agent.call<CompanyInvitation[]>(getMyCompanyInvitations, { userType: 0 });
    expect(mine.body.data.map((i) => [i.invitationId, i.status])).toEqual([[inv.invitationId, 'pending']]);
    const one = await p.agent.call<CompanyInvitation>(getCompanyInvitation, {
      userType: 0,
      invitationId: inv.invitationId,
    });
    expect(one.body.data).toMatchObject({ companyName: company.name, status: 'pending' });

    const ok = await answer(p, inv.invitationId, true);
    expect(ok.body.data.status).toBe('accepted');
    expect((await p.agent.call(getMyCompanyList, { userType: 0 })).body.data).toMatchObject([
      { companyId: company.id, role: 'operator', status: 'active' },
    ]);
    const sw = await p.agent.call(switchAccount, { userType: 0, targetUserType: 1, companyId: company.id });
    expect(sw.body.code).toBe(0);
    expect((await adminView(admin))[0]).toMatchObject({ invitationId: inv.invitationId, status: 'accepted' });
    expect(await trail(admin)).toEqual(['invitation_sent', 'invitation_accepted']);

    // A member is not invited again.
    const again = await admin.agent.call(addCompanyOperator, { userType: 1, phone: p.phone });
    expect(again.body.code).toBe(Code.Refused);
  });

  it('decline: shown as declined, no membership, cannot be accepted afterwards', async () => {
    const admin = await person(t);
    await openCompany(t, admin);
    const p = await person(t);
    const inv = await invite(admin, p.phone);
    expect((await answer(p, inv.invitationId, false)).body.data.status).toBe('declined');
    expect((await adminView(admin))[0].status).toBe('declined');
    const late = await answer(p, inv.invitationId, true);
    expect(late.body.code).toBe(Code.Refused);
    expect((await p.agent.call(getMyCompanyList, { userType: 0 })).body.data).toEqual([]);
    expect(await trail(admin)).toEqual(['invitation_sent', 'invitation_declined']);
  });

  it('expires after 7 days; sent again it is pending with a fresh lifetime and can be accepted', async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const p = await person(t);
    const inv = await invite(admin, p.phone);
    t.clock.advance(7 * DAY + 1000);
    // A week later both log in again (sessions end after two idle hours).
    await logInAgain(admin, 1);
    await logInAgain(p, 0);
    expect((await adminView(admin))[0].status).toBe('expired');
    const expiredList = await admin.agent.call<Page<CompanyInvitation>>(getCompanyInvitationList, {
      userType: 1,
      status: 'expired',
    });
    expect(expiredList.body.data.total).toBe(1);
    const late = await answer(p, inv.invitationId, true);
    expect(late.body.code).toBe(Code.Refused);
    expect(late.body.msg).toContain('expired');
    // Answering it again is refused the same way and recorded once.
    expect((await answer(p, inv.invitationId, false)).body.code).toBe(Code.Refused);
    expect((await p.agent.call(getMyCompanyList, { userType: 0 })).body.data).toEqual([]);

    const smsBefore = (await listOutbox(t.db, { to: p.phone })).length;
    const resent = await admin.agent.call<CompanyInvitation>(resendCompanyInvitation, {
      userType: 1,
      invitationId: inv.invitationId,
    });
    expect(resent.body.data).toMatchObject({ status: 'pending', sentCount: 2 });
    expect((await listOutbox(t.db, { to: p.phone })).length).toBe(smsBefore + 1);
    expect((await answer(p, inv.invitationId, true)).body.data.status).toBe('accepted');
    expect((await p.agent.call(getMyCompanyList, { userType: 0 })).body.data).toMatchObject([
      { companyId: company.id, status: 'active' },
    ]);
    expect(await trail(admin)).toEqual([
      'invitation_sent',
      'invitation_expired',
      'invitation_resent',
      'invitation_accepted',
    ]);
  });

  it('withdraw: the invitee can no longer accept; withdrawing twice is refused', async () => {
    const admin = await person(t);
    await openCompany(t, admin);
    const p = await person(t);
    const inv = await invite(admin, p.phone);
    const w = await admin.agent.call<CompanyInvitation>(withdrawCompanyInvitation, {
      userType: 1,
      invitationId: inv.invitationId,
    });
    expect(w.body.data.status).toBe('withdrawn');
    expect((await answer(p, inv.invitationId, true)).body.code).toBe(Code.Refused);
    expect((await p.agent.call(getMyCompanyList, { userType: 0 })).body.data).toEqual([]);
    const twice = await admin.agent.call(withdrawCompanyInvitation, {
      userType: 1,
      invitationId: inv.invitationId,
    });
    expect(twice.body.code).toBe(Code.Refused);
    expect(await trail(admin)).toEqual(['invitation_sent', 'invitation_withdrawn']);
  });

  it('an unregistered phone is asked to register; after registering the invitation waits to be accepted', async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const phone = uniquePhone();
    const inv = await invite(admin, phone);
    expect(inv.isRegistered).toBe(false);
    const [sms] = await listOutbox(t.db, { to: phone, limit: 1 });
    expect(sms.text).toContain('Register with this phone number first');
    expect(sms.text).toContain(`/#/companyInvitation/${inv.invitationId}`);

    const reg = await registerAndLogin(t, { phone });
    const p: Person = { agent: reg.agent, userId: reg.info.userId, phone, password: reg.password };
    const mine = await p.agent.call<CompanyInvitation[]>(getMyCompanyInvitations, { userType: 0 });
    expect(mine.body.data).toMatchObject([{ invitationId: inv.invitationId, status: 'pending' }]);
    expect((await adminView(admin))[0].isRegistered).toBe(true);
    expect((await answer(p, inv.invitationId, true)).body.data.status).toBe('accepted');
    expect((await p.agent.call(getMyCompanyList, { userType: 0 })).body.data).toMatchObject([
      { companyId: company.id, role: 'operator', status: 'active' },
    ]);
  });

  it("someone else cannot see, accept or decline another phone's invitation; another company cannot withdraw it", async () => {
    const admin = await person(t);
    await openCompany(t, admin);
    const p = await person(t);
    const stranger = await person(t);
    const otherAdmin = await person(t);
    await openCompany(t, otherAdmin);
    const inv = await invite(admin, p.phone);

    for (const isAccepted of [true, false]) {
      const r = await answer(stranger, inv.invitationId, isAccepted);
      expect(r.body.code).toBe(Code.NotFound);
    }
    const peek = await stranger.agent.call(getCompanyInvitation, {
      userType: 0,
      invitationId: inv.invitationId,
    });
    expect(peek.body.code).toBe(Code.NotFound);
    // The other company's administrator, and that company's own invitation list, know nothing of it.
    const w = await otherAdmin.agent.call(withdrawCompanyInvitation, {
      userType: 1,
      invitationId: inv.invitationId,
    });
    expect(w.body.code).toBe(Code.NotFound);
    const r = await otherAdmin.agent.call(resendCompanyInvitation, {
      userType: 1,
      invitationId: inv.invitationId,
    });
    expect(r.body.code).toBe(Code.NotFound);
    expect(await adminView(otherAdmin)).toEqual([]);
    expect((await stranger.agent.call(getMyCompanyList, { userType: 0 })).body.data).toEqual([]);
    expect((await adminView(admin))[0].status).toBe('pending');
  });

  it('a replayed accept changes nothing: refused, one membership, one accepted step', async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const p = await person(t);
    const inv = await invite(admin, p.phone);
    const [first, second] = await Promise.all([
      answer(p, inv.invitationId, true),
      answer(p, inv.invitationId, true),
    ]);
    expect([first.body.code, second.body.code].sort()).toEqual([0, Code.Refused]);
    const replay = await answer(p, inv.invitationId, true);
    expect(replay.body.code).toBe(Code.Refused);
    const decline = await answer(p, inv.invitationId, false);
    expect(decline.body.code).toBe(Code.Refused);
    expect((await p.agent.call(getMyCompanyList, { userType: 0 })).body.data).toMatchObject([
      { companyId: company.id, status: 'active' },
    ]);
    expect(await memberUserIds(admin)).toEqual([`${admin.userId}:active`, `${p.userId}:active`]);
    expect(await trail(admin)).toEqual(['invitation_sent', 'invitation_accepted']);
  });

  it('inviting a phone with a pending invitation sends the same one again; only the administrator invites', async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const p = await person(t);
    const first = await invite(admin, p.phone);
    const second = await invite(admin, p.phone);
    expect(second).toMatchObject({ invitationId: first.invitationId, sentCount: 2, status: 'pending' });
    expect((await adminView(admin)).length).toBe(1);

    const op = await person(t);
    const opInv = await invite(admin, op.phone);
    await answer(op, opInv.invitationId, true);
    await op.agent.call(switchAccount, { userType: 0, targetUserType: 1, companyId: company.id });
    const byOperator = await op.agent.call(addCompanyOperator, { userType: 1, phone: uniquePhone() });
    expect(byOperator.status).toBe(602);
    const list = await op.agent.call(getCompanyInvitationList, { userType: 1 });
    expect(list.status).toBe(602);
  });
});
