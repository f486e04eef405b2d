// The ready-made PGlite data folder a fresh start copies (server/db/template.ts): built once by applying the
// migrations one by one, copied into an empty folder, named by the migrations so a new one makes a new
// template, and a copy of an older template still gets later migrations at start.
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, listMigrations, runMigrations } from '#server/db/migrate.ts';
import { imageFromTemplate, isEmptyFolder, seedFromTemplate, templateDirFor } from '#server/db/template.ts';
import { pgliteRaw } from '#server/db/database.ts';

const work = mkdtempSync(join(tmpdir(), 'db-template-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('database template', () => {
  it('is named by the migrations: another migration, another template', () => {
    const migrations = join(work, 'migrations');
    cpSync(MIGRATIONS_DIR, migrations, { recursive: true });
    const before = templateDirFor([], migrations, work);
    expect(templateDirFor([], migrations, work)).toBe(before);
    writeFileSync(join(migrations, '999_probe.sql'), 'CREATE TABLE template_probe (id int);');
    expect(templateDirFor([], migrations, work)).not.toBe(before);
    expect(templateDirFor(['-c', 'shared_buffers=16MB'], MIGRATIONS_DIR, work)).not.toBe(
      templateDirFor([], MIGRATIONS_DIR, work),
    );
  });

  it('is built once, copied into empty folders, and later migrations still apply to a copy', async () => {
    const template = templateDirFor([], MIGRATIONS_DIR, join(work, 'cache'));
    let builds = 0;
    const build = async (at: string) => {
      builds += 1;
      const fresh = await PGlite.create({ dataDir: at });
      try {
        await runMigrations(pgliteRaw(fresh));
      } finally {
        await fresh.close();
      }
    };
    const first = join(work, 'first');
    const second = join(work, 'second');
    expect(isEmptyFolder(first)).toBe(true);
    expect(await seedFromTemplate(first, template, build)).toBe(true);
    expect(await seedFromTemplate(second, template, build)).toBe(true);
    expect(builds).toBe(1);
    expect(existsSync(join(second, 'postmaster.pid'))).toBe(false);
    expect(isEmptyFolder(second)).toBe(false);
    // Nothing half-built is left beside the template.
    expect(readdirSync(join(work, 'cache'))).toEqual([template.split('/').pop()]);

    const later = join(work, 'later-migrations');
    cpSync(MIGRATIONS_DIR, later, { recursive: true });
    writeFileSync(join(later, '999_probe.sql'), 'CREATE TABLE template_probe (id int);');
    const client = await PGlite.create({ dataDir: second });
    try {
      const rows = await client.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      expect(rows.rows.map((r) => r.name)).toEqual(listMigrations().map((m) => m.name));
      expect(await runMigrations(pgliteRaw(client), later)).toEqual(['999_probe.sql']);
      const probe = await client.query('SELECT count(*)::int AS n FROM template_probe');
      expect(probe.rows).toEqual([{ n: 0 }]);
    } finally {
      await client.close();
    }
  });
  it('is also a tarball that in-memory databases load: made once, every migration in it', async () => {
    const template = templateDirFor([], MIGRATIONS_DIR, join(work, 'cache'));
    const build = async (at: string) => {
      const fresh = await PGlite.create({ dataDir: at });
      try {
        await runMigrations(pgliteRaw(fresh));
      } finally {
        await fresh.close();
      }
    };
    let dumps = 0;
    const dump = async (at: string) => {
      dumps += 1;
      const copy = await PGlite.create({ dataDir: at });
      try {
        return await copy.dumpDataDir('none');
      } finally {
        await copy.close();
      }
    };
    const image = await imageFromTemplate(template, build, dump);
    expect(await imageFromTemplate(template, build, dump)).not.toBeNull();
    expect(dumps).toBe(1);
    expect(existsSync(`${template}.tar`)).toBe(true);
    if (!image) throw new Error('no image');
    for (let i = 0; i < 2; i++) {
      const memory = await PGlite.create({ loadDataDir: image });
      try {
        const rows = await memory.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
        expect(rows.rows.map((r) => r.name)).toEqual(listMigrations().map((m) => m.name));
        // Each load is a database of its own.
        if (i === 0) await memory.exec('CREATE TABLE image_probe (id int)');
        else await expect(memory.query('SELECT * FROM image_probe')).rejects.toThrow(/image_probe/);
      } finally {
        await memory.close();
      }
    }
  });
});
