// Builds the client into dist/client when it is missing or older than any of its sources.
// Used by `npm start` (so a fresh clone needs no extra step) and by the e2e runner.
import './require-node24.ts';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const SOURCES = [
  'src',
  'contract',
  'public',
  'index.html',
  'vite.config.ts',
  'package-lock.json',
  '.env.prod',
];
const BUILT = join(root, 'dist', 'client', 'index.html');

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when dist/client is missing or any client source changed after it was built. */
export function isClientStale(): boolean {
  if (!existsSync(BUILT)) return true;
  const built = statSync(BUILT).mtimeMs;
  return SOURCES.some((s) => newestMtime(join(root, s)) > built);
}

/** Runs `vite build` on this Node (24) when the client is stale; throws when the build fails. */
export function buildClientIfStale(log: (msg: string) => void = console.log): void {
  if (!isClientStale()) return;
  log('client: building dist/client (missing or stale) ...');
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--mode', 'prod', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`client build failed (exit ${result.status})`);
  log('client: built');
}

if (import.meta.main) buildClientIfStale();
