import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { JOBS_SCHEMA } from './job-schema.ts';
import { listMigrations } from './migrate.ts';

/**
 * A ready PGlite data folder (initdb done, every migration applied with its schema_migrations row, pg-boss's
 * schema installed: job-schema.ts) kept under node_modules/.cache, copied into an empty data folder at its
 * first start. initdb inside WebAssembly plus the migrations took most of a fresh start (seconds); copying
 * ~40 MB takes a few hundred milliseconds of the kernel's time. The template is named by a hash of what
 * decides its content (the PGlite and pg-boss versions, the start parameters, every migration's name and
 * text): a changed or added migration makes a new one, and a folder copied from an older one still gets
 * later migrations at start, as any existing folder does.
 * Holds no secrets: the CA and master key live in DATA_DIR/pki, never in the database folder.
 */
const TEMPLATE_ROOT = resolve(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'pglite-template');

/** How every embedded database runs (and so part of the template's name). */
export const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=16MB',
  '-c',
  'maintenance_work_mem=16MB',
];

/** The installed version of a package whose output lands in the template (its name is part of the template's). */
const packageVersion = (name: string): string => {
  const pkg = resolve(import.meta.dirname, '..', '..', 'node_modules', name, 'package.json');
  return existsSync(pkg) ? (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version : 'unknown';
};

/** The template folder for these start parameters and the migrations in `migrationsDir` (default set). */
export function templateDirFor(
  startParams: readonly string[],
  migrationsDir?: string,
  root = TEMPLATE_ROOT,
): string {
  const hash = createHash('sha256');
  hash.update(`pglite ${packageVersion('@electric-sql/pglite')}\0${startParams.join(' ')}\0`);
  hash.update(`pg-boss ${packageVersion('pg-boss')} ${JOBS_SCHEMA}\0`);
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
  copyInto(template, dir);
  return true;
}

/** Where a copy of the template for `dir` is made before it is renamed to `dir`. */
const copyBeside = (dir: string) => `${dir}.${process.pid}.copy`;

/**
 * The copy is made beside `dir` and renamed into place whole, so a start killed during the copy leaves no half
 * database behind (the next start finds the folder empty and copies again).
 */
function copyInto(template: string, dir: string): void {
  const beside = copyBeside(dir);
  rmSync(beside, { recursive: true, force: true });
  cpSync(template, beside, { recursive: true });
  placeCopy(beside, dir);
}

function placeCopy(beside: string, dir: string): void {
  // An empty folder may stand there (created by hand or by mkdtemp); one with anything in it is never removed.
  if (existsSync(dir)) rmdirSync(dir);
  renameSync(beside, dir);
}

/** The copy on a thread of its own: cpSync, with nothing of the server loaded (a worker from source text). */
const COPY_WORKER = `const { cpSync, rmSync } = require('node:fs');
const { from, to } = require('node:worker_threads').workerData;
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });`;

/**
 * Starts copying the template into the empty folder `dir` on a thread of its own, so that the copy (a few
 * hundred milliseconds of the kernel's time for ~40 MB) runs while the rest of the server loads
 * (server/early-start.ts). Resolves true once `dir` holds the copy, false when the copy failed (`dir` is left
 * as it was, and openDatabase seeds it as before). Null when there is nothing to do here: `dir` holds a
 * database already, or the template is not built yet (openDatabase builds it).
 */
export function copyTemplateAhead(dir: string, template: string): Promise<boolean> | null {
  if (!isEmptyFolder(dir) || !existsSync(join(template, 'PG_VERSION'))) return null;
  const beside = copyBeside(dir);
  return new Promise((done) => {
    const worker = new Worker(COPY_WORKER, { eval: true, workerData: { from: template, to: beside } });
    let isCopied = false;
    worker.once('error', () => {});
    worker.once('exit', (code) => {
      try {
        if (code === 0) {
          placeCopy(beside, dir);
          isCopied = true;
        }
      } catch {
        // left as it was: openDatabase copies again in this thread
      } finally {
        if (!isCopied) rmSync(beside, { recursive: true, force: true });
        done(isCopied);
      }
    });
  });
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
