// db/sql-helpers.ts: queries files answer raw rows with camelCase field names (issue 24); the values pass untouched.
import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { type Exec, camelOne, camelRows } from '#server/db/sql-helpers.ts';

const answering = (rows: Record<string, unknown>[]): Exec => ({
  execute: (async () => ({ rows })) as unknown as Exec['execute'],
});

test('column names become camelCase; values, nested keys included, stay as read', async () => {
  const at = new Date('2026-01-02T03:04:05.000Z');
  const ex = answering([
    { id: 'a', owner_type: 1, created_at: at, sha256_hex: 'x', steps: { step_index: 0 }, n: null },
    { id: 'b', owner_type: 0, created_at: at, sha256_hex: 'y', steps: null, n: 2 },
  ]);
  expect(await camelRows(ex, sql`SELECT 1`)).toEqual([
    { id: 'a', ownerType: 1, createdAt: at, sha256Hex: 'x', steps: { step_index: 0 }, n: null },
    { id: 'b', ownerType: 0, createdAt: at, sha256Hex: 'y', steps: null, n: 2 },
  ]);
  expect(await camelOne(ex, sql`SELECT 1`)).toEqual({
    id: 'a',
    ownerType: 1,
    createdAt: at,
    sha256Hex: 'x',
    steps: { step_index: 0 },
    n: null,
  });
  expect(await camelOne(answering([]), sql`SELECT 1`)).toBeUndefined();
});
