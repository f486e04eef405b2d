// Two instances on one PostgreSQL (db/write-sync.ts): a write through one evicts what the other cached at
// once, through LISTEN/NOTIFY, long before CACHE_TTL_MS (a minute here) could. PGlite is one process per
// folder, so these run only on PostgreSQL (`npm run test:pg`).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LoginInfo,
  getEsignLoginInfo,
  logout,
  updateLoginUserInfoCache,
} from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { users } from '#server/db/schema/accounts.ts';
import { type Agent, type TestApp, createTestApp, registerAndLogin } from './helper.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const LONG_TTL = '60000';

/** The same browser, its requests sent to another instance (as a load balancer without sticky sessions does). */
function through(app: TestApp, browser: Agent): Agent {
  const other = app.agent();
  for (const [k, v] of browser.cookies) other.cookies.set(k, v);
  return other;
}

/** Asks until `check` holds: the notification travels A → PostgreSQL → B while the answer travels to us. */
async function soon(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

describe.skipIf(!onPostgres)('caches across instances', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ CACHE_TTL_MS: LONG_TTL });
    const url = a.deps.config.database.kind === 'postgres' ? a.deps.config.database.url : '';
    b = await createTestApp({ CACHE_TTL_MS: LONG_TTL, DATABASE_URL: url });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const nameOn = async (agent: Agent) =>
    (await agent.call<LoginInfo | null>(getEsignLoginInfo, { userType: 0 })).body.data?.name ?? null;

  it('logged in through one instance, the session works through the other', async () => {
    const { agent } = await registerAndLogin(a);
    const onB = through(b, agent);
    const res = await onB.call<LoginInfo>(updateLoginUserInfoCache, { userType: 0 });
    expect(res.body.code).toBe(0);
    expect(res.body.data.phone).toBeTruthy();
  });

  it('logout on one instance: the other, which had the session cached, refuses the cookies', async () => {
    const { agent } = await registerAndLogin(a);
    const onB = through(b, agent);
    expect((await onB.call(getEsignLoginInfo, { userType: 0 })).body.data).not.toBeNull();
    expect((await agent.call(logout, { userType: 0 })).body.code).toBe(0);
    expect(
      await soon(
        async () =>
          (await onB.call(updateLoginUserInfoCache, { userType: 0 })).body.code === Code.NotLoggedIn,
      ),
    ).toBe(true);
  });

  it('a write through one instance shows in the other instance cached login info', async () => {
    const { agent, phone } = await registerAndLogin(a);
    const onB = through(b, agent);
    expect(await nameOn(onB)).toBeNull();
    await a.db.update(users).set({ name: '张三' }).where(eq(users.phone, phone));
    expect(await soon(async () => (await nameOn(onB)) === '张三')).toBe(true);
    // And in a transaction: seen once it commits.
    await a.db.transaction(async (tx) => {
      await tx.update(users).set({ name: '李四' }).where(eq(users.phone, phone));
    });
    expect(await soon(async () => (await nameOn(onB)) === '李四')).toBe(true);
  });
});
