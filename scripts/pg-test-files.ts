/**
 * Lists the server test files the PostgreSQL pass (scripts/pg-test.sh) runs: those that open a database.
 * A file does when it, or a test helper it imports from tests/ (tests/server/helper.ts, the shared
 * fixtures in tests/server/fixtures/), names createTestApp, openDatabase or DATABASE_URL. The others (pure
 * units: parsers, the CA, the import graph, …) answer the same on either engine, and the PGlite pass already
 * runs them. The PDF engine, the verifier corpus/fuzz and the seal renderer are left out as before: the
 * PGlite pass covers them.
 * New test files are picked up by the same rule, nothing to list by hand.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const OPENS_DATABASE = /\b(createTestApp|openDatabase|DATABASE_URL)\b/;
const LEFT_OUT = /^tests\/server\/(pdf|seal)\//;

const walk = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? walk(path) : [path];
      })
    : [];

const known = new Map<string, boolean>();
function opensDatabase(file: string, seen = new Set<string>()): boolean {
  const cached = known.get(file);
  if (cached !== undefined) return cached;
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  const result =
    OPENS_DATABASE.test(text) ||
    [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].some(([, spec]) => {
      const target = resolve(dirname(file), spec);
      return target.startsWith(join(root, 'tests')) && existsSync(target) && opensDatabase(target, seen);
    });
  known.set(file, result);
  return result;
}

const files = [...walk(join(root, 'tests', 'server')), ...walk(join(root, 'tests', 'contract'))]
  .filter((path) => path.endsWith('.test.ts'))
  .map((path) => relative(root, path))
  .filter((path) => !LEFT_OUT.test(path) && opensDatabase(join(root, path)))
  .sort();
process.stdout.write(`${files.join('\n')}\n`);
