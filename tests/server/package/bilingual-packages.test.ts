// Packages on sale speak the reader's language: a name and a description in Chinese and in English, each
// on its own (the English screens showed "10 份电子合同签署，一年有效 / 10 contract signings…").
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { adminSavePackage, getPackageList, type PackageInfo } from '#contract/calls/package.ts';
import { Code } from '#contract/codes.ts';
import { closeDatabase, openDatabase, rawOf } from '#server/db/database.ts';
import { MIGRATIONS_DIR, listMigrations, runMigrations } from '#server/db/migrate.ts';
import { seedCatalogue } from '#server/modules/package/index.ts';
import { appWithPlatformAdmin, makePackage, type PackageTestApp } from '../fixtures/package.ts';

const CJK = /[\u3400-\u9fff]/;
const LATIN = /[A-Za-z]/;

const apps: PackageTestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.t.close();
});

describe('bilingual packages', () => {
  test('the default catalogue has each name and description in Chinese and in English, not mixed', async () => {
    const app = await appWithPlatformAdmin();
    apps.push(app);
    await seedCatalogue(app.t.deps);
    const res = await app.t.agent().call<PackageInfo[]>(getPackageList, { userType: 0 });
    const list = res.body.data as PackageInfo[];
    expect(list.length).toBeGreaterThan(0);
    for (const p of list) {
      expect(p.description, p.nameEn).toMatch(CJK);
      expect(p.description, p.nameEn).not.toMatch(LATIN);
      expect(p.descriptionEn, p.nameEn).toMatch(LATIN);
      expect(p.descriptionEn, p.nameEn).not.toMatch(CJK);
      expect(p.nameEn).not.toMatch(CJK);
    }
  });

  test('an administrator gives a description in both languages or in none', async () => {
    const app = await appWithPlatformAdmin();
    apps.push(app);
    const base = {
      userType: 0,
      name: '试用',
      nameEn: 'Trial',
      saleProductType: '10' as const,
      signings: 3,
      priceFen: 100,
      validityDays: 30,
    };
    const onlyChinese = await app.admin.call(adminSavePackage, { ...base, description: '试用三份' });
    expect(onlyChinese.body.code).toBe(Code.BadRequest);
    const onlyEnglish = await app.admin.call(adminSavePackage, { ...base, descriptionEn: 'three to try' });
    expect(onlyEnglish.body.code).toBe(Code.BadRequest);
    const both = await makePackage(app.admin, {
      ...base,
      description: '试用三份',
      descriptionEn: 'Three to try',
    });
    expect([both.description, both.descriptionEn]).toEqual(['试用三份', 'Three to try']);
  });
});

test('the migration splits a description written "Chinese / English" into its two languages', async () => {
  const db = await openDatabase({ database: { kind: 'pglite', dataDir: null } }, { migrate: false });
  const raw = rawOf(db);
  const before = mkdtempSync(join(tmpdir(), 'mig-desc-en-'));
  try {
    for (const m of listMigrations().filter((m) => !m.name.includes('package_description_en')))
      copyFileSync(join(MIGRATIONS_DIR, m.name), join(before, m.name));
    await runMigrations(raw, before);
    await raw.withConnection((exec) =>
      exec(`
        INSERT INTO packages (id, name, name_en, description, sale_product_type, signings, price_fen, validity_days,
          tiers, is_active, created_at, updated_at)
        VALUES
          ('00000000-0000-4000-8000-000000000001', '基础', 'Basic', '10 份电子合同签署，一年有效 / 10 contract signings, valid for one year',
           '10', 10, 9900, 365, '[]', true, now(), now()),
          ('00000000-0000-4000-8000-000000000002', '自定', 'Own', '管理员自己的说明', '10', 1, 100, 30, '[]', true, now(), now());`),
    );
    expect((await runMigrations(raw)).some((name) => name.includes('package_description_en'))).toBe(true);
    const rows = await raw.withConnection((_exec, query) =>
      query<{ description: string; description_en: string }>(
        'SELECT description, description_en FROM packages ORDER BY id',
      ),
    );
    expect(rows).toEqual([
      {
        description: '10 份电子合同签署，一年有效',
        description_en: '10 contract signings, valid for one year',
      },
      { description: '管理员自己的说明', description_en: '' },
    ]);
  } finally {
    rmSync(before, { recursive: true, force: true });
    await closeDatabase(db);
  }
});
