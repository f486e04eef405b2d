// Pure parts of the caches: which statements count as writes (db/write-watch.ts) and when a cached value
// may answer (lib/derived-cache.ts).
import { describe, expect, it } from 'vitest';
import { WriteWatch, effectOf, watchClient } from '#server/db/write-watch.ts';
import { DerivedCache } from '#server/lib/derived-cache.ts';

describe('effectOf', () => {
  it.each([
    ['select "id" from "users" where "phone" = $1', { kind: 'read' }],
    ['SELECT * FROM seals WHERE owner_id = $1 FOR UPDATE', { kind: 'read' }],
    ['select "updated_at", "created_at" from "flows"', { kind: 'read' }],
    ['insert into "sessions" ("id") values ($1)', { kind: 'write', table: 'sessions' }],
    ['update "users" set "name" = $1', { kind: 'write', table: 'users' }],
    ['DELETE FROM public.quota_holds WHERE id = $1', { kind: 'write', table: 'quota_holds' }],
    ['WITH x AS (UPDATE seals SET status = 1 RETURNING id) SELECT * FROM x', { kind: 'write', table: null }],
    ["SELECT nextval('orders_seq')", { kind: 'write', table: null }],
    ['begin', { kind: 'read' }],
    ['COMMIT', { kind: 'txEnd' }],
    ['rollback', { kind: 'txEnd' }],
    ['ROLLBACK TO SAVEPOINT s1', { kind: 'write', table: null }],
    ['UPDATE seals SET status = 1; INSERT INTO quota_holds VALUES (1)', { kind: 'write', table: null }],
    ['select 1;', { kind: 'read' }],
  ])('%s', (text, effect) => {
    expect(effectOf(text)).toEqual(effect);
  });
});

describe('WriteWatch', () => {
  it('stamps per table; a write of unknown tables concerns all', () => {
    const w = new WriteWatch();
    const s0 = w.stampOf(['users']);
    w.bump('outbox');
    expect(w.stampOf(['users'])).toBe(s0);
    expect(w.stampExcept(new Set(['outbox']))).toBe(s0);
    w.bump('users');
    expect(w.stampOf(['users'])).toBeGreaterThan(s0);
    const s1 = w.stampOf(['sessions']);
    w.bump(null);
    expect(w.stampOf(['sessions'])).toBeGreaterThan(s1);
  });
});

describe('WriteWatch readers', () => {
  it('a write is told to other instances only when a declared cache reads its table', async () => {
    const w = new WriteWatch();
    expect(w.isRead('users')).toBe(false);
    w.declareReader({ tables: ['sessions'] });
    w.declareReader({ except: new Set(['sessions', 'outbox', 'sms_codes']) });
    expect([w.isRead('sessions'), w.isRead('users'), w.isRead('outbox'), w.isRead(null)]).toEqual([
      true,
      true,
      false,
      true,
    ]);
    // Through a watched client: the publisher hears of users and of a transaction that wrote flows, never
    // of outbox or sms_codes, alone or in a transaction; the local stamps move for every write.
    const told: (string | null)[][] = [];
    w.publisher = async (tables) => {
      told.push([...tables]);
    };
    const conn = { query: async (_text: string) => ({ rows: [] }) };
    const db = watchClient({ ...conn, connect: async () => ({ ...conn }) }, w);
    const before = w.stampExcept(new Set());
    await db.query('INSERT INTO outbox (x) VALUES (1)');
    expect(w.stampExcept(new Set())).toBeGreaterThan(before);
    await db.query('UPDATE users SET name = 1');
    const tx = await db.connect();
    await tx.query('BEGIN');
    await tx.query('UPDATE sms_codes SET used_at = 1');
    await tx.query('COMMIT');
    await tx.query('BEGIN');
    await tx.query('UPDATE sms_codes SET used_at = 1');
    await tx.query('UPDATE flows SET status = 1');
    await tx.query('COMMIT');
    expect(told).toEqual([['users'], ['flows']]);
  });
});

describe('DerivedCache', () => {
  const setup = (ttlMs = 1000) => {
    let stamp = 0;
    let computed = 0;
    const cache = new DerivedCache<string, number>({ maxEntries: 2, ttlMs, stamp: () => stamp });
    const compute = async () => {
      computed += 1;
      return computed;
    };
    return { cache, compute, bump: () => (stamp += 1), computed: () => computed };
  };

  it('answers from the entry until the stamp moves or the time to live passes', async () => {
    const c = setup();
    expect(await c.cache.get('a', 0, c.compute)).toBe(1);
    expect(await c.cache.get('a', 999, c.compute)).toBe(1);
    expect(await c.cache.get('a', 1000, c.compute)).toBe(2);
    c.bump();
    expect(await c.cache.get('a', 1000, c.compute)).toBe(3);
    // A clock moved backwards (tests, NTP) does not keep an entry alive.
    expect(await c.cache.get('a', 10, c.compute)).toBe(4);
  });

  it('concurrent misses share one computation; failures and refused values are not kept', async () => {
    const c = setup();
    const [x, y] = await Promise.all([c.cache.get('a', 0, c.compute), c.cache.get('a', 0, c.compute)]);
    expect([x, y, c.computed()]).toEqual([1, 1, 1]);
    await expect(c.cache.get('b', 0, () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await c.cache.get('b', 0, c.compute)).toBe(2);
    expect(await c.cache.get('c', 0, c.compute, () => false)).toBe(3);
    expect(await c.cache.get('c', 0, c.compute)).toBe(4);
  });

  it('keeps at most maxEntries, dropping the oldest; ttl 0 means no cache', async () => {
    const c = setup();
    await c.cache.get('a', 0, c.compute);
    await c.cache.get('b', 0, c.compute);
    await c.cache.get('c', 0, c.compute);
    expect(await c.cache.get('a', 0, c.compute)).toBe(4);
    const off = setup(0);
    await off.cache.get('a', 0, off.compute);
    expect(await off.cache.get('a', 0, off.compute)).toBe(2);
  });
});
