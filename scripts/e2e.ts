// `npm run test:e2e`: Debian's Chromium, a fresh client build, then the Playwright suite.
// Playwright's own webServer starts the real server on a fresh data folder (playwright.config.ts).
import './require-node24.ts';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { buildClientIfStale } from './client-build.ts';
import { ensureChromium } from './ensure-tools.ts';

const root = resolve(import.meta.dirname, '..');
ensureChromium();
buildClientIfStale();
const cli = join(root, 'node_modules', '@playwright', 'test', 'cli.js');
const result = spawnSync(process.execPath, [cli, 'test', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
});
process.exit(result.status ?? 1);
