// Issue 23, M1: members' full phones leaked through the operator picker. An unrelated person took a companyId
// from searchCompanyToJoin, then asked chooseUserOperatorList with a keyword growing one digit at a time: the
// keyword matched part of a phone, so each masked answer told the next digit. These tests replay that attack
// through the real HTTP layer and show it closed: the picker answers the company's administrators only, a phone
// matches only in full in every member search, and the pickers are rate-limited per account.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  chooseUserList,
  chooseUserOperatorList,
  getCompanyMemberList,
  searchCompanyOperator,
  searchCompanyToJoin,
  switchAccount,
  transferCompanyAdmin,
} from '#contract/calls/company.ts';
import { Code } from '#contract/codes.ts';
import { users } from '#server/db/schema/accounts.ts';
import { PICKER_MAX_PER_HOUR } from '#server/modules/company/testing.ts';
import { pickerKeyword } from '#server/modules/company/testing.ts';
import { eq } from 'drizzle-orm';
import { type Agent, appForFile } from '../helper.ts';
import { type Person, inviteAndAccept, openCompany, person } from '../fixtures/company.ts';

const t = appForFile();

type Picked = { userId: string; name: string | null; phone: string; role: string };
type Member = { memberId: string; userId: string; phone: string; role: string };

const NOT_FOUND = { code: Code.NotFound, msg: 'no such company', data: null };
const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}`;
/** Every prefix of a phone, one digit longer each time (the attack's keywords), the full phone last. */
const prefixes = (phone: string) => Array.from({ length: phone.length }, (_, i) => phone.slice(0, i + 1));

/** A verified company with an administrator and two operators (invited by phone, accepted). */
async function companyWithMembers() {
  const admin = await person(t);
  const company = await openCompany(t, admin);
  const ops: Person[] = [];
  for (let i = 0; i < 2; i++) {
    const p = await person(t);
    await inviteAndAccept(admin.agent, p);
    ops.push(p);
  }
  return { admin, company, ops };
}

const pick = (agent: Agent, body: object) =>
  agent.call<Picked[]>(chooseUserOperatorList, { userType: 0, ...body });

describe('chooseUserOperatorList answers only the administrators of the company', () => {
  it('the attack as reported: an outsider grows the keyword digit by digit and learns nothing', async () => {
    const { company, ops } = await companyWithMembers();
    const outsider = await person(t);
    // Step 1 of the report: searchCompanyToJoin hands anyone the companyId.
    const found = await outsider.agent.call<{ companyId: string }[]>(searchCompanyToJoin, {
      userType: 0,
      keyword: company.name.slice(0, 8),
    });
    expect(found.body.data.map((c) => c.companyId)).toContain(company.id);
    // Step 2: the picker with the companyId and a growing keyword, for both victims (22 calls), then the
    // company's whole list: every answer is the one a company that does not exist gets.
    const unknownCompany = randomUUID();
    for (const victim of ops) {
      for (const keyword of prefixes(victim.phone)) {
        const r = await pick(outsider.agent, { companyId: company.id, keyword });
        expect(r.body, keyword).toEqual(NOT_FOUND);
        const none = await pick(outsider.agent, { companyId: unknownCompany, keyword });
        expect(r.body).toEqual(none.body);
        expect(r.status).toBe(none.status);
      }
    }
    expect((await pick(outsider.agent, { companyId: company.id })).body).toEqual(NOT_FOUND);
    expect((await pick(outsider.agent, { companyId: unknownCompany })).body).toEqual(NOT_FOUND);
  });

  it('refuses non-administrator members, a former administrator and the administrator of another company', async () => {
    const { admin, company, ops } = await companyWithMembers();
    // An active operator acting for the company: neither by the session's company nor by naming it.
    const sw = await ops[0].agent.call(switchAccount, {
      userType: 0,
      targetUserType: 1,
      companyId: company.id,
    });
    expect(sw.body.code, sw.body.msg).toBe(0);
    expect((await ops[0].agent.call(chooseUserOperatorList, { userType: 1 })).body).toEqual(NOT_FOUND);
    expect(
      (
        await ops[0].agent.call(chooseUserOperatorList, {
          userType: 1,
          companyId: company.id,
          keyword: ops[1].phone,
        })
      ).body,
    ).toEqual(NOT_FOUND);
    // Another company's administrator naming this company.
    const otherAdmin = await person(t);
    await openCompany(t, otherAdmin);
    expect(
      (await otherAdmin.agent.call(chooseUserOperatorList, { userType: 1, companyId: company.id })).body,
    ).toEqual(NOT_FOUND);
    // The administrator answers; after handing the role over, no longer (and the new administrator does).
    expect(
      (await admin.agent.call<Picked[]>(chooseUserOperatorList, { userType: 1 })).body.data,
    ).toHaveLength(3);
    const list = await admin.agent.call<{ list: Member[] }>(getCompanyMemberList, { userType: 1 });
    const heir = list.body.data.list.find((m) => m.userId === ops[0].userId)!;
    const handed = await admin.agent.call(transferCompanyAdmin, { userType: 1, memberId: heir.memberId });
    expect(handed.body.code, handed.body.msg).toBe(0);
    expect((await admin.agent.call(chooseUserOperatorList, { userType: 1 })).body).toEqual(NOT_FOUND);
    expect(
      (await ops[0].agent.call<Picked[]>(chooseUserOperatorList, { userType: 1 })).body.data.map(
        (m) => m.userId,
      ),
    ).toContain(admin.userId);
  });
});

describe('a phone matches only in full, even for the administrator', () => {
  it('chooseUserOperatorList: no prefix, suffix or middle part matches; the full phone does, masked', async () => {
    const { admin, company, ops } = await companyWithMembers();
    const victim = ops[0];
    const a = admin.agent;
    const call = (keyword: string) =>
      a.call<Picked[]>(chooseUserOperatorList, { userType: 1, companyId: company.id, keyword });
    for (const keyword of prefixes(victim.phone).slice(0, -1)) {
      const r = await call(keyword);
      expect(r.body.code, r.body.msg).toBe(0);
      expect(r.body.data, keyword).toEqual([]);
    }
    for (const part of [victim.phone.slice(-4), victim.phone.slice(3, 7), victim.phone.slice(1), '%', '1_'])
      expect((await call(part)).body.data, part).toEqual([]);
    const full = await call(victim.phone);
    expect(full.body.data).toEqual([
      { userId: victim.userId, name: null, phone: masked(victim.phone), role: 'operator' },
    ]);
    // Typed with spaces, dashes or +86, it is still the full phone.
    const p = victim.phone;
    for (const typed of [
      `${p.slice(0, 3)} ${p.slice(3, 7)} ${p.slice(7)}`,
      `+86${p}`,
      `${p.slice(0, 3)}-${p.slice(3)}`,
    ])
      expect(
        (await call(typed)).body.data.map((m) => m.userId),
        typed,
      ).toEqual([victim.userId]);
    // The full phone of someone who is not a member finds no one.
    const stranger = await person(t);
    expect((await call(stranger.phone)).body.data).toEqual([]);
    // Names still match by part.
    await t.db.update(users).set({ name: '司马光明' }).where(eq(users.id, ops[1].userId));
    expect((await call('司马')).body.data.map((m) => m.userId)).toEqual([ops[1].userId]);
  });

  it('searchCompanyOperator and getCompanyMemberList follow the same rule', async () => {
    const { admin, ops } = await companyWithMembers();
    const victim = ops[0];
    const search = (keyword: string) =>
      admin.agent.call<{ list: { userId: string }[]; total: number }>(searchCompanyOperator, {
        userType: 1,
        keyword,
      });
    const members = (keyword: string) =>
      admin.agent.call<{ list: { userId: string }[]; total: number }>(getCompanyMemberList, {
        userType: 1,
        keyword,
      });
    for (const keyword of [
      ...prefixes(victim.phone).slice(0, -1),
      victim.phone.slice(-4),
      victim.phone.slice(2, 9),
    ]) {
      expect((await search(keyword)).body.data, keyword).toMatchObject({ list: [], total: 0 });
      expect((await members(keyword)).body.data, keyword).toMatchObject({ list: [], total: 0 });
    }
    expect((await search(victim.phone)).body.data.list.map((m) => m.userId)).toEqual([victim.userId]);
    expect((await members(victim.phone)).body.data.list.map((m) => m.userId)).toEqual([victim.userId]);
  });

  it('pickerKeyword: digits are a phone, whole or nothing; the rest is a name', () => {
    expect(pickerKeyword('13800138000')).toEqual({ phone: '13800138000' });
    expect(pickerKeyword(' 138 0013-8000 ')).toEqual({ phone: '13800138000' });
    expect(pickerKeyword('+86 138 0013 8000')).toEqual({ phone: '13800138000' });
    expect(pickerKeyword('0086-13800138000')).toEqual({ phone: '13800138000' });
    for (const part of ['1', '138', '1380013800', '3800138000', '138001380001', '张3', '23800138000'])
      expect(pickerKeyword(part), part).toEqual({ none: true });
    expect(pickerKeyword(' 欧阳 ')).toEqual({ name: '欧阳' });
  });
});

describe('the pickers are rate-limited per account', () => {
  it(`answers RateLimited after ${PICKER_MAX_PER_HOUR} look-ups an hour, in both languages, shared by the pickers`, async () => {
    const asker = await person(t);
    const target = await person(t);
    for (let i = 0; i < PICKER_MAX_PER_HOUR; i++) {
      const r = await asker.agent.call<unknown[]>(chooseUserList, { userType: 0, keyword: target.phone });
      expect(r.body.code, `look-up ${i + 1}: ${r.body.msg}`).toBe(0);
    }
    const over = await asker.agent.call(chooseUserList, { userType: 0, keyword: target.phone });
    expect(over.body).toEqual({
      code: Code.RateLimited,
      msg: 'too many member and signer look-ups; try again in an hour',
      data: null,
    });
    const zh = await asker.agent.call(
      chooseUserList,
      { userType: 0, keyword: target.phone },
      { headers: { 'accept-language': 'zh-CN' } },
    );
    expect(zh.body).toMatchObject({
      code: Code.RateLimited,
      msg: '查询成员或签署人过于频繁，请一小时后再试',
    });
    // The other pickers share the account's budget, whatever they would have answered.
    expect((await pick(asker.agent, { companyId: randomUUID() })).body.code).toBe(Code.RateLimited);
    expect((await asker.agent.call(searchCompanyOperator, { userType: 0 })).body.code).toBe(Code.RateLimited);
    // Another account is not affected; an hour later the asker may look again.
    const other = await person(t);
    expect((await other.agent.call(chooseUserList, { userType: 0, keyword: target.phone })).body.code).toBe(
      0,
    );
    t.clock.advance(65 * 60 * 1000);
    expect((await asker.agent.call(chooseUserList, { userType: 0, keyword: target.phone })).body.code).toBe(
      0,
    );
  }, 120_000);
});
