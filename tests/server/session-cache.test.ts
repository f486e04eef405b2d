// The session and login-info caches (server/modules/session/caches.ts): a change made by this server is
// seen by the very next call; a change made behind its back (another server on the same PostgreSQL) is
// seen once CACHE_TTL_MS has passed.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  type LoginInfo,
  getEsignLoginInfo,
  logout,
  updateLoginUserInfoCache,
} from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { rawOf } from '#server/db/database.ts';
import { users } from '#server/db/schema/accounts.ts';
import { type Agent, registerAndLogin, appForFile } from './helper.ts';

const TTL_MS = 2000;
const t = appForFile({ CACHE_TTL_MS: String(TTL_MS) });

/** A write by another process: straight on a connection of the engine, not through this server's Db. */
const writeBehindItsBack = (text: string) =>
  rawOf(t.db).withConnection(async (exec) => {
    await exec(text);
  });

const nameOf = async (agent: Agent) =>
  (await agent.call<LoginInfo | null>(getEsignLoginInfo, { userType: 0 })).body.data?.name ?? null;

describe('login info cache', () => {
  it('a change this server makes shows at once; a change behind its back within CACHE_TTL_MS', async () => {
    const { agent, phone } = await registerAndLogin(t);
    expect(await nameOf(agent)).toBeNull();

    await t.db.update(users).set({ name: '张三' }).where(eq(users.phone, phone));
    expect(await nameOf(agent)).toBe('张三');

    await writeBehindItsBack(`UPDATE users SET name = '李四' WHERE phone = '${phone}'`);
    expect(await nameOf(agent)).toBe('张三');
    // updateLoginUserInfoCache is the client's way to ask for a fresh copy.
    const fresh = await agent.call<LoginInfo>(updateLoginUserInfoCache, { userType: 0 });
    expect(fresh.body.data.name).toBe('李四');

    await writeBehindItsBack(`UPDATE users SET name = '王五' WHERE phone = '${phone}'`);
    expect(await nameOf(agent)).toBe('李四');
    t.clock.advance(TTL_MS + 1);
    expect(await nameOf(agent)).toBe('王五');
  });

  it('many calls at once while nothing changes: one answer for all, the same as computed alone', async () => {
    const { agent } = await registerAndLogin(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => agent.call<LoginInfo>(getEsignLoginInfo, { userType: 0 })),
    );
    for (const a of answers) expect(a.body).toEqual(answers[0].body);
    expect(answers[0].body.data.remainQuantity).toBeGreaterThan(0);
  });
});

describe('session cache', () => {
  it('after logout the same cookies are refused by the next call', async () => {
    const { agent } = await registerAndLogin(t);
    expect((await agent.call(getEsignLoginInfo, { userType: 0 })).body.data).not.toBeNull();
    const kept = new Map(agent.cookies);
    expect((await agent.call(logout, { userType: 0 })).body.code).toBe(0);
    // Replay the old cookies and headers, as a stolen copy would.
    for (const [k, v] of kept) agent.cookies.set(k, v);
    const after = await agent.call(updateLoginUserInfoCache, { userType: 0 });
    expect(after.body.code).toBe(Code.NotLoggedIn);
  });

  it('a session ended by another server stops working within CACHE_TTL_MS', async () => {
    const { agent, phone } = await registerAndLogin(t);
    expect((await agent.call(updateLoginUserInfoCache, { userType: 0 })).body.code).toBe(0);
    await writeBehindItsBack(
      `UPDATE sessions SET ended_at = now(), ended_reason = 'logout'
        WHERE user_id = (SELECT id FROM users WHERE phone = '${phone}')`,
    );
    t.clock.advance(TTL_MS + 1);
    expect((await agent.call(updateLoginUserInfoCache, { userType: 0 })).body.code).toBe(Code.NotLoggedIn);
  });
});
