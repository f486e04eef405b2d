// When a build output is stale: missing, or older than any file or folder among its sources. Shared by the
// client build (dist/client) and the server bundle (dist/server), which `npm start` and the runners rebuild.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when `built` is missing or any of `sources` (files or folders, under `root`) changed after it. */
export function isStale(root: string, built: string, sources: readonly string[]): boolean {
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return sources.some((s) => newestMtime(join(root, s)) > builtAt);
}
