// The ready-made PGlite data folder a fresh start copies (server/db/template.ts): built once by applying the
// migrations one by one, copied into an empty folder, named by the migrations so a new one makes a new
// template, and a copy of an older template still gets later migrations at start.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, listMigrations, runMigrations } from '#server/db/migrate.ts';
import {
  copyTemplateAhead,
  imageFromTemplate,
  isEmptyFolder,
  seedFromTemplate,
  templateDirFor,
} from '#server/db/template.ts';
import { closeDatabase, openDatabase, pgliteRaw, rawOf } from '#server/db/database.ts';
import { JOBS_SCHEMA } from '#server/db/job-schema.ts';

const work = mkdtempSync(join(tmpdir(), 'db-template-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A template as the tests here build it: initdb and the migrations. */
async function buildFromMigrations(at: string): Promise<void> {
  const fresh = await PGlite.create({ dataDir: at });
  try {
    await runMigrations(pgliteRaw(fresh));
  } finally {
    await fresh.close();
  }
}

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
      await buildFromMigrations(at);
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
    const image = await imageFromTemplate(template, buildFromMigrations, dump);
    expect(await imageFromTemplate(template, buildFromMigrations, dump)).not.toBeNull();
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

  it('is copied ahead on a thread of its own, into an empty folder only, and placed whole', async () => {
    const template = templateDirFor([], MIGRATIONS_DIR, join(work, 'cache'));
    expect(await seedFromTemplate(join(work, 'warm'), template, buildFromMigrations)).toBe(true);

    const ahead = join(work, 'ahead');
    const copy = copyTemplateAhead(ahead, template);
    expect(copy).not.toBeNull();
    expect(await copy).toBe(true);
    expect(readdirSync(ahead).sort()).toEqual(readdirSync(template).sort());
    // The copy was made beside and renamed: nothing of it is left there.
    expect(readdirSync(work).filter((name) => name.endsWith('.copy'))).toEqual([]);
    const client = await PGlite.create({ dataDir: ahead });
    try {
      const rows = await client.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      expect(rows.rows.map((r) => r.name)).toEqual(listMigrations().map((m) => m.name));
    } finally {
      await client.close();
    }

    // A folder that holds a database is never copied over; without a template there is nothing to copy ahead.
    expect(copyTemplateAhead(ahead, template)).toBeNull();
    expect(copyTemplateAhead(join(work, 'no-template-yet'), join(work, 'cache', 'missing'))).toBeNull();

    // Something written into the folder meanwhile is kept: the copy is dropped, and the caller seeds as before.
    const raced = join(work, 'raced');
    mkdirSync(raced);
    const racing = copyTemplateAhead(raced, template);
    writeFileSync(join(raced, 'note.txt'), 'mine');
    expect(await racing).toBe(false);
    expect(readdirSync(raced)).toEqual(['note.txt']);
    expect(readdirSync(work).filter((name) => name.endsWith('.copy'))).toEqual([]);
  });

  it("holds pg-boss's schema at the version pg-boss expects, so a fresh start installs none", async () => {
    const dataDir = join(work, 'server-data');
    const db = await openDatabase({ database: { kind: 'pglite', dataDir } });
    try {
      const expected = (
        JSON.parse(readFileSync(join('node_modules', 'pg-boss', 'package.json'), 'utf8')) as {
          pgboss: { schema: number };
        }
      ).pgboss.schema;
      const rows = await rawOf(db).withConnection((_exec, query) =>
        query<{ version: number }>(`SELECT version FROM ${JOBS_SCHEMA}.version`),
      );
      expect(rows).toEqual([{ version: expected }]);
    } finally {
      await closeDatabase(db);
    }
  });
});
