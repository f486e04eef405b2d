// Builds the client into dist/client when it is missing or older than any of its sources.
// Used by `npm start` (so a fresh clone needs no extra step) and by the e2e runner.
import './require-node24.ts';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { isStale } from './build-staleness.ts';

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

/** True when dist/client is missing or any client source changed after it was built. */
export function isClientStale(): boolean {
  return isStale(root, BUILT, SOURCES);
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
