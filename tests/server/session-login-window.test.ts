// The login limits slide (issue 23, L4): with fixed 15-minute windows, twice the limit of wrong passwords
// fitted around a window's boundary. Now no 15 minutes hold more attempts than the limit, wherever the
// boundary of the old windows falls; once the attempts have slid out of the last 15 minutes, logins are
// evaluated again.
import { afterEach, describe, expect, it } from 'vitest';
import { userLogin } from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { hitSlidingCounter } from '#server/db/rate-counter.ts';
import { type TestApp, createTestApp, registerAndLogin, uniquePhone } from './helper.ts';

const MINUTE = 60_000;
const WINDOW = 15 * MINUTE;

/** Moves the test clock forward to `offset` ms after the next boundary of the old fixed 15-minute windows. */
function toBoundaryPlus(t: TestApp, offset: number): number {
  const now = t.clock.now().getTime();
  let boundary = Math.ceil(now / WINDOW) * WINDOW;
  if (boundary + offset < now + MINUTE) boundary += WINDOW;
  t.clock.advance(boundary + offset - now);
  return boundary;
}

/** Moves the test clock forward to `boundary + offset`. */
function at(t: TestApp, boundary: number, offset: number) {
  const now = t.clock.now().getTime();
  expect(boundary + offset).toBeGreaterThan(now);
  t.clock.advance(boundary + offset - now);
}

let app: TestApp | undefined;
/** A test app with these settings, closed after the test. */
async function openApp(env: Record<string, string> = {}): Promise<TestApp> {
  app = await createTestApp(env);
  return app;
}
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const login = (t: TestApp, phone: string, password: string) =>
  t.agent().call(userLogin, { userType: 0, phone, password });

describe('failed logins per phone (LOGIN_MAX_FAILED_PER_PHONE=10)', () => {
  it('counts wrong passwords across the old window boundary, and forgets them as they slide out', async () => {
    const t = await openApp({ LOGIN_MAX_FAILED_PER_PHONE: '10' });
    const { phone, password } = await registerAndLogin(t);
    const boundary = toBoundaryPlus(t, -7 * MINUTE);
    // 5 wrong passwords 7 minutes before the boundary, 5 more 5 minutes after it: all 10 are evaluated.
    for (let i = 0; i < 5; i++)
      expect((await login(t, phone, `wrong-a${i}`)).body.code).toBe(Code.BadCredentials);
    at(t, boundary, 5 * MINUTE);
    for (let i = 0; i < 5; i++)
      expect((await login(t, phone, `wrong-b${i}`)).body.code).toBe(Code.BadCredentials);
    // A minute later the last 15 minutes hold 10 failures: refused, even with the right password (fixed
    // windows would have seen 5 in the new window and let it through).
    at(t, boundary, 6 * MINUTE);
    const refused = await login(t, phone, password);
    expect(refused.body).toMatchObject({
      code: Code.RateLimited,
      msg: 'too many login attempts, please try again later',
    });
    const zh = await t
      .agent()
      .call(userLogin, { userType: 0, phone, password }, { headers: { 'accept-language': 'zh-CN' } });
    expect(zh.body).toMatchObject({ code: Code.RateLimited, msg: '登录尝试过于频繁，请稍后再试' });
    // Still refused 8 minutes after the boundary: the first five are 15 minutes old only at boundary + 8.
    at(t, boundary, 8 * MINUTE);
    expect((await login(t, phone, password)).body.code).toBe(Code.RateLimited);
    // Once the first five have slid out (and the bucket they were counted in), the phone's attempts are
    // evaluated again: a wrong password is a wrong password, the right one logs in.
    at(t, boundary, 10 * MINUTE);
    expect((await login(t, phone, 'wrong-c0')).body.code).toBe(Code.BadCredentials);
    expect((await login(t, phone, password)).body.code).toBe(0);
  });

  it('after the window has fully slid past, a locked phone logs in again', async () => {
    const t = await openApp({ LOGIN_MAX_FAILED_PER_PHONE: '3' });
    const { phone, password } = await registerAndLogin(t);
    const boundary = toBoundaryPlus(t, -30_000);
    for (let i = 0; i < 3; i++)
      expect((await login(t, phone, `wrong-${i}`)).body.code).toBe(Code.BadCredentials);
    // Across the boundary: refused (a fixed window would have started over at the boundary).
    at(t, boundary, 30_000);
    expect((await login(t, phone, password)).body.code).toBe(Code.RateLimited);
    at(t, boundary, 14 * MINUTE);
    expect((await login(t, phone, password)).body.code).toBe(Code.RateLimited);
    // 16 minutes after the last attempt (the window and one bucket): evaluated again.
    at(t, boundary, 30 * MINUTE + 30_000);
    expect((await login(t, phone, password)).body.code).toBe(0);
  });
});

describe('login attempts per address (LOGIN_MAX_PER_IP=4)', () => {
  it('are limited over any 15 minutes, not per fixed window', async () => {
    const t = await openApp({ LOGIN_MAX_PER_IP: '4' });
    const boundary = toBoundaryPlus(t, -MINUTE);
    const attempt = async () => (await login(t, uniquePhone(), 'x1234567')).body.code;
    expect([await attempt(), await attempt()]).toEqual([Code.BadCredentials, Code.BadCredentials]);
    at(t, boundary, MINUTE);
    expect([await attempt(), await attempt(), await attempt()]).toEqual([
      Code.BadCredentials,
      Code.BadCredentials,
      Code.RateLimited,
    ]);
    // Still refused at boundary + 12 (a refused attempt counts too).
    at(t, boundary, 12 * MINUTE);
    expect(await attempt()).toBe(Code.RateLimited);
    // At boundary + 17:30 the attempts of boundary - 1 and + 1 have slid out (15 minutes and one bucket):
    // the address has room for three more besides the refused one of boundary + 12.
    at(t, boundary, 17 * MINUTE + 30_000);
    expect([await attempt(), await attempt(), await attempt(), await attempt()]).toEqual([
      Code.BadCredentials,
      Code.BadCredentials,
      Code.BadCredentials,
      Code.RateLimited,
    ]);
  });
});

describe('hitSlidingCounter', () => {
  it('counts the last window (one bucket of slack at most), bounds its rows, and counts concurrent hits apart', async () => {
    const t = await openApp();
    const key = `test-sliding:${uniquePhone()}`;
    const start = Math.ceil(t.clock.now().getTime() / WINDOW) * WINDOW + WINDOW;
    const hit = (ms: number) => hitSlidingCounter(t.db, key, WINDOW, new Date(start + ms));
    expect(await hit(0)).toBe(1);
    expect(await hit(59_000)).toBe(2); // the same one-minute bucket
    expect(await hit(14 * MINUTE)).toBe(3);
    // The hits of minute 0 are 15 minutes old at 15:00; they still count while their bucket overlaps the window.
    expect(await hit(15 * MINUTE + 59_000)).toBe(4);
    expect(await hit(16 * MINUTE)).toBe(3);
    expect(await hit(30 * MINUTE + 59_000)).toBe(3);
    expect(await hit(32 * MINUTE)).toBe(2);
    // Hits in one instant, concurrently: every count is distinct, none lost.
    const counts = await Promise.all(Array.from({ length: 8 }, () => hit(40 * MINUTE)));
    expect([...counts].sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
