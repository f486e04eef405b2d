// Migration 140 (issue 16): kept reports are stored gzip-compressed by the server (report-codec.ts), so the
// database never parses a report of several MB. A report kept as jsonb before the upgrade is still read
// until its hour is up; a report kept after it is stored compressed and reads back the same.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { VerifyResult } from '#contract/calls/verify.ts';
import { closeDatabase, openDatabase, rawOf } from '#server/db/database.ts';
import { MIGRATIONS_DIR, listMigrations, runMigrations } from '#server/db/migrate.ts';
import { findReport, insertReport } from '#server/modules/verify/testing.ts';
import { packReport, unpackReport } from '#server/modules/verify/testing.ts';

const result = (reportId: string, signatures: number) =>
  ({
    reportId,
    expiresAt: '2030-01-01T01:00:00.000Z',
    source: 'upload',
    status: 'modified',
    signatures: Array.from({ length: signatures }, (_, i) => ({
      field: `Signature${i + 1}`,
      status: 'modified',
    })),
  }) as unknown as VerifyResult;

test('migration 140: a report kept as jsonb before it is still read; one kept after it is stored compressed', async () => {
  const db = await openDatabase({ database: { kind: 'pglite', dataDir: null } }, { migrate: false });
  const raw = rawOf(db);
  const before = mkdtempSync(join(tmpdir(), 'mig-140-'));
  const now = new Date('2030-01-01T00:00:00Z');
  const expiresAt = new Date('2030-01-01T01:00:00Z');
  try {
    for (const m of listMigrations().filter((m) => m.name < '140_'))
      copyFileSync(join(MIGRATIONS_DIR, m.name), join(before, m.name));
    await runMigrations(raw, before);
    const old = '00000000-0000-4000-8000-000000000140';
    await raw.withConnection((_exec, query) =>
      query(
        `INSERT INTO verify_reports (id, source, result, created_at, expires_at)
         VALUES ($1, 'upload', $2::jsonb, $3, $4)`,
        [old, JSON.stringify(result(old, 1)), now.toISOString(), expiresAt.toISOString()],
      ),
    );
    expect(await runMigrations(raw)).toContain('140_verify_report_gzip.sql');

    const kept = await findReport(db, old, now);
    expect(kept?.result).toEqual({ json: result(old, 1) });

    // A hostile file's report with thousands of signature fields: what the database holds is small.
    const id = '00000000-0000-4000-8000-000000000141';
    const big = result(id, 5000);
    const packed = await packReport(big);
    expect(packed.length).toBeLessThan(JSON.stringify(big).length / 10);
    await insertReport(db, {
      id,
      source: 'upload',
      verificationCode: null,
      packed,
      document: null,
      expiresAt,
      createdAt: now,
    });
    const back = await findReport(db, id, now);
    if (!back || !('packed' in back.result)) throw new Error('the new report is not stored compressed');
    expect(await unpackReport(back.result.packed)).toEqual(big);
    const [stored] = await raw.withConnection((_exec, query) =>
      query<{ result: unknown; bytes: number }>(
        'SELECT result, octet_length(result_gzip) AS bytes FROM verify_reports WHERE id = $1',
        [id],
      ),
    );
    expect(stored).toEqual({ result: null, bytes: packed.length });
  } finally {
    rmSync(before, { recursive: true, force: true });
    await closeDatabase(db);
  }
});
