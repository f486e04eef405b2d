import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { listMigrations } from './migrate.ts';

/**
 * A ready PGlite data folder (initdb done, every migration applied with its schema_migrations row) kept
 * under node_modules/.cache, copied into an empty data folder at its first start. initdb inside
 * WebAssembly plus the migrations took most of a fresh start (seconds); copying ~40 MB takes tens of
 * milliseconds. The template is named by a hash of what decides its content (the PGlite version, the
 * start parameters, every migration's name and text): a changed or added migration makes a new one, and a
 * folder copied from an older one still gets later migrations at start, as any existing folder does.
 * Holds no secrets: the CA and master key live in DATA_DIR/pki, never in the database folder.
 */
export const TEMPLATE_ROOT = resolve(
  import.meta.dirname,
  '..',
  '..',
  'node_modules',
  '.cache',
  'pglite-template',
);

const pgliteVersion = (): string => {
  const pkg = resolve(
    import.meta.dirname,
    '..',
    '..',
    'node_modules',
    '@electric-sql',
    'pglite',
    'package.json',
  );
  return existsSync(pkg) ? (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version : 'unknown';
};

/** The template folder for these start parameters and the migrations in `migrationsDir` (default set). */
export function templateDirFor(
  startParams: readonly string[],
  migrationsDir?: string,
  root = TEMPLATE_ROOT,
): string {
  const hash = createHash('sha256');
  hash.update(`pglite ${pgliteVersion()}\0${startParams.join(' ')}\0`);
  for (const m of listMigrations(migrationsDir)) hash.update(`${m.name}\0${m.sql}\0`);
  return join(root, hash.digest('hex').slice(0, 24));
}

/** True when `dir` holds no database yet (missing or empty): the only case a template is copied into. */
export function isEmptyFolder(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/**
 * Copies the template into the empty folder `dir`, building the template first when it is missing
 * (`build` makes a data folder at the path it is given, closed when it resolves). Returns false when the
 * cache folder cannot be written (a read-only install): the caller then starts on the empty folder as before.
 */
export async function seedFromTemplate(
  dir: string,
  template: string,
  build: (at: string) => Promise<void>,
): Promise<boolean> {
  if (!existsSync(join(template, 'PG_VERSION'))) {
    // Built beside its final name and renamed, so a concurrent or killed start never sees half a template.
    const tmp = `${template}.${process.pid}.tmp`;
    try {
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(tmp, { recursive: true });
    } catch {
      return false;
    }
    try {
      await build(tmp);
      // PGlite leaves its lock file behind; a copy must not look like a running server's folder.
      rmSync(join(tmp, 'postmaster.pid'), { force: true });
      try {
        renameSync(tmp, template);
      } catch (err) {
        // Another start built it at the same time: theirs is as good as ours.
        if (!existsSync(join(template, 'PG_VERSION'))) throw err;
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  cpSync(template, dir, { recursive: true });
  return true;
}

/**
 * The template as the tarball PGlite loads into an in-memory database (`loadDataDir`; memory://, which the
 * tests use): made once beside the template folder from a copy of it (`dump` opens the copy at the path it
 * is given and answers its dumpDataDir), read from disk by each process that asks. Loading it costs about
 * a second of CPU where initdb plus every migration inside WebAssembly cost six to nine, for every test
 * app. Null when the cache folder cannot be written: the caller then starts an empty database as before.
 */
export async function imageFromTemplate(
  template: string,
  build: (at: string) => Promise<void>,
  dump: (at: string) => Promise<Blob>,
): Promise<Blob | null> {
  const image = `${template}.tar`;
  if (!existsSync(image)) {
    const copy = mkdtempSync(join(tmpdir(), 'esign-pg-image-'));
    const tmp = `${image}.${process.pid}.tmp`;
    try {
      if (!(await seedFromTemplate(copy, template, build))) return null;
      writeFileSync(tmp, new Uint8Array(await (await dump(copy)).arrayBuffer()));
      // Renamed into place whole, so a concurrent start never reads half an image.
      renameSync(tmp, image);
    } catch {
      if (!existsSync(image)) return null;
    } finally {
      rmSync(copy, { recursive: true, force: true });
      rmSync(tmp, { force: true });
    }
  }
  return new Blob([readFileSync(image)]);
}
