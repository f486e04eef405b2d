import { describe, expect, it } from 'vitest';
import {
  POWER_OF_ATTORNEY_FILE_PATH,
  addCompanyOperator,
  approveJoinCompany,
  cancelJoinCompany,
  chooseUserList,
  chooseUserOperatorList,
  disableCompanyOperator,
  enableCompanyOperator,
  getCompanyAccountInfo,
  getCompanyCaCert,
  getCompanyMemberList,
  getCompanyStaffList,
  getExclusiveCode,
  getMyCompanyList,
  getSwitchableAccounts,
  joinCompany,
  removeCompanyOperator,
  searchCompanyOperator,
  searchCompanyToJoin,
  switchAccount,
  transferCompanyAdmin,
  uploadPowerOfAttorney,
} from '#contract/calls/company.ts';
import { type LoginInfo, userLogin, userOperatorLogin } from '#contract/calls/session.ts';
import { Code, HttpStatus } from '#contract/codes.ts';
import { callPath } from '#contract/envelope.ts';
import { users } from '#server/db/schema/accounts.ts';
import { eq } from 'drizzle-orm';
import { type CallResult, appForFile } from '../helper.ts';
import { type Person, inviteAndAccept, openCompany, person, tinyPng, upload } from '../fixtures/company.ts';

const t = appForFile();

type Member = {
  memberId: string;
  userId: string;
  name: string | null;
  phone: string;
  role: string;
  status: string;
};
type Page<T> = { list: T[]; total: number };

const expect602 = (r: CallResult) => {
  expect(r.status).toBe(HttpStatus.NoPermission);
  expect(r.body.msg).toBe('user has no permission');
};

/** A person asks to join by search, the admin approves; the member then acts for the company. */
async function joinAndApprove(
  admin: Person,
  company: { id: string; name: string },
): Promise<Person & { memberId: string }> {
  const p = await person(t);
  const found = await p.agent.call<{ companyId: string }[]>(searchCompanyToJoin, {
    userType: 0,
    keyword: company.name.slice(0, 6),
  });
  expect(found.body.data.map((c) => c.companyId)).toContain(company.id);
  const asked = await p.agent.call<{ memberId: string }>(joinCompany, { userType: 0, companyId: company.id });
  const ok = await admin.agent.call(approveJoinCompany, {
    userType: 1,
    memberId: asked.body.data.memberId,
    isApproved: true,
  });
  expect(ok.body.code).toBe(0);
  const sw = await p.agent.call(switchAccount, { userType: 0, targetUserType: 1, companyId: company.id });
  expect(sw.body.code).toBe(0);
  return { ...p, memberId: asked.body.data.memberId };
}

describe('joining a company', () => {
  it('request, waiting state, joining twice refused, approval, company login', async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const p = await person(t);
    const byCode = await p.agent.call<{ companyId: string }[]>(searchCompanyToJoin, {
      userType: 0,
      keyword: company.creditCode,
    });
    expect(byCode.body.data).toEqual([
      { companyId: company.id, companyName: company.name, creditCode: company.creditCode },
    ]);
    const asked = await p.agent.call<{ memberId: string; status: string }>(joinCompany, {
      userType: 0,
      companyId: company.id,
    });
    expect(asked.body.data.status).toBe('pending');
    const twice = await p.agent.call(joinCompany, { userType: 0, companyId: company.id });
    expect(twice.body.code).toBe(Code.Refused);
    expect(twice.body.msg).toContain('already asked');
    const mine = await p.agent.call<{ status: string }[]>(getMyCompanyList, { userType: 0 });
    expect(mine.body.data).toMatchObject([{ companyId: company.id, status: 'pending', role: 'operator' }]);
    // A pending member cannot log into the company yet.
    const early = await t
      .agent()
      .call(userOperatorLogin, { userType: 1, phone: p.phone, password: p.password });
    expect(early.body.code).toBe(Code.Refused);

    const list = await admin.agent.call<Page<Member>>(getCompanyMemberList, {
      userType: 1,
      status: 'pending',
    });
    expect(list.body.data.list.map((m) => m.memberId)).toEqual([asked.body.data.memberId]);
    expect(list.body.data.list[0].phone).toBe(`${p.phone.slice(0, 3)}****${p.phone.slice(-4)}`);
    await admin.agent.call(approveJoinCompany, {
      userType: 1,
      memberId: asked.body.data.memberId,
      isApproved: true,
    });

    const login = await t.agent().call<LoginInfo>(userOperatorLogin, {
      userType: 1,
      phone: p.phone,
      password: p.password,
    });
    expect(login.body.data).toMatchObject({
      userType: 1,
      companyId: company.id,
      isAdmin: false,
      hasCaCert: true,
    });
    const again = await p.agent.call(joinCompany, { userType: 0, companyId: company.id });
    expect(again.body.msg).toContain('already a member');
  });

  it('rejection, withdrawal and asking again', async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const p = await person(t);
    const asked = await p.agent.call<{ memberId: string }>(joinCompany, {
      userType: 0,
      companyId: company.id,
    });
    const no = await admin.agent.call<Member>(approveJoinCompany, {
      userType: 1,
      memberId: asked.body.data.memberId,
      isApproved: false,
    });
    expect(no.body.data.status).toBe('rejected');
    const mine = await p.agent.call<{ status: string }[]>(getMyCompanyList, { userType: 0 });
    expect(mine.body.data[0].status).toBe('rejected');
    const re = await p.agent.call<{ memberId: string; status: string }>(joinCompany, {
      userType: 0,
      companyId: company.id,
    });
    expect(re.body.data.status).toBe('pending');
    const cancel = await p.agent.call(cancelJoinCompany, { userType: 0, memberId: re.body.data.memberId });
    expect(cancel.body.code).toBe(0);
    const after = await p.agent.call<unknown[]>(getMyCompanyList, { userType: 0 });
    expect(after.body.data).toEqual([]);
  });

  it('by the invitation code of getExclusiveCode; a wrong code is refused', async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const code = await admin.agent.call<{ code: string; link: string }>(getExclusiveCode, { userType: 1 });
    expect(code.body.data.link).toContain(`inviteCode=${code.body.data.code}`);
    const same = await admin.agent.call<{ code: string }>(getExclusiveCode, { userType: 1 });
    expect(same.body.data.code).toBe(code.body.data.code);
    const p = await person(t);
    const bad = await p.agent.call(joinCompany, { userType: 0, inviteCode: 'WRONGCODE1' });
    expect(bad.body.code).toBe(Code.NotFound);
    const ok = await p.agent.call<{ companyId: string }>(joinCompany, {
      userType: 0,
      inviteCode: code.body.data.code,
    });
    expect(ok.body.data.companyId).toBe(company.id);
    const renewed = await admin.agent.call<{ code: string }>(getExclusiveCode, {
      userType: 1,
      isRenewed: true,
    });
    expect(renewed.body.data.code).not.toBe(code.body.data.code);
    const old = await (await person(t)).agent.call(joinCompany, {
      userType: 0,
      inviteCode: code.body.data.code,
    });
    expect(old.body.code).toBe(Code.NotFound);
  });
});

describe('roles', () => {
  it("an operator gets 602 for the administrator's calls, in both languages", async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const op = await joinAndApprove(admin, company);
    const pending = await person(t);
    const asked = await pending.agent.call<{ memberId: string }>(joinCompany, {
      userType: 0,
      companyId: company.id,
    });
    expect602(
      await op.agent.call(approveJoinCompany, {
        userType: 1,
        memberId: asked.body.data.memberId,
        isApproved: true,
      }),
    );
    expect602(await op.agent.call(addCompanyOperator, { userType: 1, phone: pending.phone }));
    expect602(await op.agent.call(getCompanyMemberList, { userType: 1 }));
    expect602(
      await op.agent.call(disableCompanyOperator, { userType: 1, memberId: asked.body.data.memberId }),
    );
    expect602(await op.agent.call(transferCompanyAdmin, { userType: 1, memberId: op.memberId }));
    expect602(await op.agent.call(getExclusiveCode, { userType: 1, isRenewed: true }));
    const zh = await op.agent.call(
      removeCompanyOperator,
      { userType: 1, memberId: asked.body.data.memberId },
      {
        headers: { 'accept-language': 'zh-CN' },
      },
    );
    expect(zh.status).toBe(HttpStatus.NoPermission);
    expect(zh.body.msg).toBe('用户没有权限');
    const letter = await upload(
      op.agent,
      callPath(uploadPowerOfAttorney),
      { userType: '1', companyId: company.id },
      {
        bytes: tinyPng(),
      },
    );
    expect(letter.status).toBe(HttpStatus.NoPermission);
    // What any member may do.
    expect((await op.agent.call(getCompanyCaCert, { userType: 1 })).body.code).toBe(0);
    expect((await op.agent.call(getCompanyStaffList, { userType: 1 })).body.code).toBe(0);
    expect((await op.agent.call(getExclusiveCode, { userType: 1 })).body.code).toBe(0);
    const file = await op.agent.get(`${POWER_OF_ATTORNEY_FILE_PATH}/${company.id}`);
    expect(file.body.code).toBe(Code.NotFound); // a legal representative's company has no letter
  });

  it("another company's member ids are not found; its data cannot be reached through the body", async () => {
    const adminA = await person(t);
    const a = await openCompany(t, adminA);
    const adminB = await person(t);
    const b = await openCompany(t, adminB);
    const opB = await joinAndApprove(adminB, b);
    for (const def of [
      disableCompanyOperator,
      enableCompanyOperator,
      removeCompanyOperator,
      transferCompanyAdmin,
    ]) {
      const r = await adminA.agent.call(def, { userType: 1, memberId: opB.memberId });
      expect(r.body.code, def.name).toBe(Code.NotFound);
    }
    const approve = await adminA.agent.call(approveJoinCompany, {
      userType: 1,
      memberId: opB.memberId,
      isApproved: false,
    });
    expect(approve.body.code).toBe(Code.NotFound);
    // The member list is the session company's, whatever the body says.
    const list = await adminA.agent.call<Page<Member>>(getCompanyMemberList, {
      userType: 1,
      companyId: b.id,
    });
    expect(list.body.data.list.map((m) => m.userId)).toEqual([adminA.userId]);
    // Switching into a company one is not a member of is a permission refusal.
    expect602(await adminA.agent.call(switchAccount, { userType: 1, targetUserType: 1, companyId: b.id }));
    const letter = await adminA.agent.get(`${POWER_OF_ATTORNEY_FILE_PATH}/${b.id}`);
    expect(letter.body.code).toBe(Code.NotFound);
    expect(a.id).not.toBe(b.id);
  });

  it('a person session calling a company call is told to switch (not 602)', async () => {
    const p = await person(t);
    const r = await p.agent.call(getCompanyStaffList, { userType: 0 });
    expect(r.body.code).toBe(Code.Refused);
    expect(r.body.msg).toContain('switch to a company account');
  });
});

describe('operators management', () => {
  it('invite by phone (accepted), disable (no company login, 602 in a live session), enable, remove', async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const p = await person(t);
    // Operators are invited (issue 6): an unregistered phone gets an invitation to register, not a refusal.
    const unknown = await admin.agent.call<{ status: string; isRegistered: boolean }>(addCompanyOperator, {
      userType: 1,
      phone: '13000000000',
    });
    expect(unknown.body.data).toMatchObject({ status: 'pending', isRegistered: false });
    const added = await inviteAndAccept(admin.agent, p);
    expect(added).toMatchObject({ role: 'operator', status: 'active' });
    const twice = await admin.agent.call(addCompanyOperator, { userType: 1, phone: p.phone });
    expect(twice.body.code).toBe(Code.Refused);
    const selfDisable = await admin.agent.call(disableCompanyOperator, {
      userType: 1,
      memberId: (await admin.agent.call<Page<Member>>(getCompanyMemberList, { userType: 1 })).body.data
        .list[0].memberId,
    });
    expect(selfDisable.body.code).toBe(Code.Refused);

    const opSession = t.agent();
    expect(
      (await opSession.call(userLogin, { userType: 1, phone: p.phone, password: p.password })).body.code,
    ).toBe(0);
    const memberId = added.memberId;
    expect(
      (await admin.agent.call(disableCompanyOperator, { userType: 1, memberId })).body.data,
    ).toMatchObject({
      status: 'disabled',
    });
    const refused = await t.agent().call(userLogin, { userType: 1, phone: p.phone, password: p.password });
    expect(refused.body.code).toBe(Code.Refused);
    expect602(await opSession.call(getCompanyStaffList, { userType: 1 }));
    // A disabled member cannot lift the decision by asking again.
    const ask = await p.agent.call(joinCompany, { userType: 0, companyId: company.id });
    expect(ask.body.msg).toContain('disabled');

    await admin.agent.call(enableCompanyOperator, { userType: 1, memberId });
    expect(
      (await t.agent().call(userLogin, { userType: 1, phone: p.phone, password: p.password })).body.code,
    ).toBe(0);

    expect((await admin.agent.call(removeCompanyOperator, { userType: 1, memberId })).body.code).toBe(0);
    const gone = await admin.agent.call<Page<Member>>(getCompanyMemberList, { userType: 1 });
    expect(gone.body.data.list.map((m) => m.userId)).toEqual([admin.userId]);
    expect(
      (await t.agent().call(userLogin, { userType: 1, phone: p.phone, password: p.password })).body.code,
    ).toBe(Code.Refused);
    const removedAgain = await admin.agent.call(removeCompanyOperator, { userType: 1, memberId });
    expect(removedAgain.body.code).toBe(Code.Refused);
  });

  it('hands the administrator role over; the old administrator becomes an operator', async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const op = await joinAndApprove(admin, company);
    const other = await person(t);
    const pending = await other.agent.call<{ memberId: string }>(joinCompany, {
      userType: 0,
      companyId: company.id,
    });
    const notActive = await admin.agent.call(transferCompanyAdmin, {
      userType: 1,
      memberId: pending.body.data.memberId,
    });
    expect(notActive.body.code).toBe(Code.Refused);

    const handed = await admin.agent.call<LoginInfo>(transferCompanyAdmin, {
      userType: 1,
      memberId: op.memberId,
    });
    expect(handed.body.data).toMatchObject({ isAdmin: false, companyId: company.id });
    expect602(await admin.agent.call(getCompanyMemberList, { userType: 1 }));
    const list = await op.agent.call<Page<Member>>(getCompanyMemberList, { userType: 1 });
    const roles = Object.fromEntries(list.body.data.list.map((m) => [m.userId, m.role]));
    expect(roles).toMatchObject({ [op.userId]: 'admin', [admin.userId]: 'operator' });
    const info = await op.agent.call<{ role: string; pendingRequests: number }>(getCompanyAccountInfo, {
      userType: 1,
    });
    expect(info.body.data).toMatchObject({ role: 'admin', pendingRequests: 1, activeMembers: 2 });
  });

  it('pages and searches members', async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const added: Person[] = [];
    for (let i = 0; i < 11; i++) {
      const p = await person(t);
      await inviteAndAccept(admin.agent, p);
      added.push(p);
    }
    const page1 = await admin.agent.call<Page<Member>>(getCompanyMemberList, { userType: 1 });
    expect(page1.body.data.total).toBe(12);
    expect(page1.body.data.list).toHaveLength(10);
    expect(page1.body.data.list[0].role).toBe('admin');
    const page2 = await admin.agent.call<Page<Member>>(getCompanyMemberList, { userType: 1, pageNum: 2 });
    expect(page2.body.data.list).toHaveLength(2);
    // A phone matches only in full (issue 23): part of one finds no one.
    const byPart = await admin.agent.call<Page<Member>>(searchCompanyOperator, {
      userType: 1,
      keyword: added[3].phone.slice(-8),
    });
    expect(byPart.body.data).toMatchObject({ list: [], total: 0 });
    const byPhone = await admin.agent.call<Page<Member>>(searchCompanyOperator, {
      userType: 1,
      keyword: added[3].phone,
    });
    expect(byPhone.body.data.list.map((m) => m.userId)).toEqual([added[3].userId]);
    expect(byPhone.body.data.list[0].phone).not.toContain(added[3].phone.slice(3, 7));
    // By name, and literally: % matches only a name that has one (names come from the session module).
    await t.db.update(users).set({ name: '欧阳%测' }).where(eq(users.id, added[5].userId));
    await t.db.update(users).set({ name: '欧阳明' }).where(eq(users.id, added[6].userId));
    const byName = await admin.agent.call<Page<Member>>(searchCompanyOperator, {
      userType: 1,
      keyword: '欧阳',
    });
    expect(byName.body.data.list.map((m) => m.userId).sort()).toEqual(
      [added[5].userId, added[6].userId].sort(),
    );
    expect(byName.body.data.total).toBe(2);
    const literal = await admin.agent.call<Page<Member>>(searchCompanyOperator, {
      userType: 1,
      keyword: '%',
    });
    expect(literal.body.data.list.map((m) => m.userId)).toEqual([added[5].userId]);
    const none = await admin.agent.call<Page<Member>>(searchCompanyOperator, {
      userType: 1,
      keyword: '无此人',
    });
    expect(none.body.data).toMatchObject({ list: [], total: 0 });
    expect(company.id).toBeTruthy();
  });
});

describe('pickers and switching', () => {
  it('chooseUserList matches only a full phone or a full name and masks the phone', async () => {
    const p = await person(t);
    await t.db.update(users).set({ name: '欧阳测试' }).where(eq(users.id, p.userId));
    const asker = await person(t);
    const byPhone = await asker.agent.call<{ userId: string; phone: string; name: string }[]>(
      chooseUserList,
      {
        userType: 0,
        keyword: p.phone,
      },
    );
    expect(byPhone.body.data).toEqual([
      { userId: p.userId, name: '欧阳测试', phone: `${p.phone.slice(0, 3)}****${p.phone.slice(-4)}` },
    ]);
    const partial = await asker.agent.call<unknown[]>(chooseUserList, {
      userType: 0,
      keyword: p.phone.slice(0, 7),
    });
    expect(partial.body.data).toEqual([]);
    const byName = await asker.agent.call<{ userId: string }[]>(chooseUserList, {
      userType: 0,
      keyword: '欧阳测试',
    });
    expect(byName.body.data.map((u) => u.userId)).toContain(p.userId);
    const partName = await asker.agent.call<unknown[]>(chooseUserList, { userType: 0, keyword: '欧阳' });
    expect(partName.body.data).toEqual([]);
  });

  it("chooseUserOperatorList: the company's members, masked, for its administrator only", async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const op = await joinAndApprove(admin, company);
    const own = await admin.agent.call<{ userId: string; role: string; phone: string }[]>(
      chooseUserOperatorList,
      { userType: 1 },
    );
    expect(own.body.data.map((m) => m.userId).sort()).toEqual([admin.userId, op.userId].sort());
    for (const m of own.body.data) expect(m.phone).toMatch(/^\d{3}\*{4}\d{4}$/);
    // An operator, and an outsider naming the company, get what a company that does not exist gets.
    const byOperator = await op.agent.call(chooseUserOperatorList, { userType: 1 });
    expect(byOperator.body).toMatchObject({ code: Code.NotFound, msg: 'no such company', data: null });
    const outsider = await person(t);
    const named = await outsider.agent.call(chooseUserOperatorList, { userType: 0, companyId: company.id });
    expect(named.body).toMatchObject({ code: Code.NotFound, msg: 'no such company', data: null });
    const noCompany = await outsider.agent.call(chooseUserOperatorList, { userType: 0 });
    expect(noCompany.body.code).toBe(Code.Refused);
  });

  it('switches between the person account and the companies of active membership', async () => {
    const admin = await person(t);
    const company = await openCompany(t, admin);
    const accounts = await admin.agent.call<
      { userType: number; companyId: string | null; isCurrent: boolean }[]
    >(getSwitchableAccounts, { userType: 1 });
    expect(accounts.body.data).toMatchObject([
      { userType: 0, companyId: null, isCurrent: false },
      { userType: 1, companyId: company.id, isCurrent: true, role: 'admin' },
    ]);
    const toPerson = await admin.agent.call<LoginInfo>(switchAccount, { userType: 1, targetUserType: 0 });
    expect(toPerson.body.data).toMatchObject({
      userType: 0,
      companyId: null,
      companyName: null,
      isAdmin: false,
    });
    // The switch is in the server session: a company call now refuses.
    expect((await admin.agent.call(getCompanyStaffList, { userType: 0 })).body.code).toBe(Code.Refused);
    const noId = await admin.agent.call(switchAccount, { userType: 0, targetUserType: 1 });
    expect(noId.body.code).toBe(Code.BadRequest);
  });
});
