// Migration 119 (issue 15): quota holds keep their flow's title and initiator, so the package module's usage
// detail no longer joins the flow module's table. Holds made before it get them from their flows.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { closeDatabase, openDatabase, rawOf } from '#server/db/database.ts';
import { MIGRATIONS_DIR, listMigrations, runMigrations } from '#server/db/migrate.ts';

test('migration 119 copies each existing hold its flow title and initiator', async () => {
  const db = await openDatabase({ database: { kind: 'pglite', dataDir: null } }, { migrate: false });
  const raw = rawOf(db);
  const before = mkdtempSync(join(tmpdir(), 'mig-119-'));
  try {
    for (const m of listMigrations().filter((m) => m.name < '119_'))
      copyFileSync(join(MIGRATIONS_DIR, m.name), join(before, m.name));
    await runMigrations(raw, before);
    const user = '00000000-0000-4000-8000-000000000001';
    const flow = '00000000-0000-4000-8000-000000000002';
    await raw.withConnection((exec) =>
      exec(`
        INSERT INTO users (id, phone, password_hash, name) VALUES ('${user}', '13800000000', 'x', '张三');
        INSERT INTO flows (id, owner_type, owner_id, initiator_user_id, initiator_name, title, status, step_count,
          deadline, search_text, quota_state, created_at)
        VALUES ('${flow}', 0, '${user}', '${user}', '张三', '租赁合同', 'signing', 1, now(), '', 'reserved', now());
        INSERT INTO quota_holds (flow_id, owner_type, owner_id, state, reserved_at)
        VALUES ('${flow}', 0, '${user}', 'reserved', now());`),
    );
    expect(await runMigrations(raw)).toContain('119_quota_hold_titles.sql');
    const rows = await raw.withConnection((_exec, query) =>
      query<{ flow_title: string; initiator_name: string | null }>(
        'SELECT flow_title, initiator_name FROM quota_holds WHERE flow_id = $1',
        [flow],
      ),
    );
    expect(rows).toEqual([{ flow_title: '租赁合同', initiator_name: '张三' }]);
  } finally {
    rmSync(before, { recursive: true, force: true });
    await closeDatabase(db);
  }
});
