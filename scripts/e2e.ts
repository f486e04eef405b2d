// `npm run test:e2e`: Debian's Chromium, a fresh client build, then the Playwright suite.
// Playwright's own webServer starts the real server on a fresh data folder (playwright.config.ts): the
// bundled server, as `npm start` runs it (E2E_SERVER; Playwright run directly starts server/main.ts).
import './require-node24.ts';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { buildClientIfStale } from './client-build.ts';
import { ensureChromium } from './ensure-tools.ts';
import { buildServerIfStale, SERVER_BUNDLE } from './server-build.ts';

const root = resolve(import.meta.dirname, '..');
ensureChromium();
buildClientIfStale();
buildServerIfStale();
const cli = join(root, 'node_modules', '@playwright', 'test', 'cli.js');
const result = spawnSync(process.execPath, [cli, 'test', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', E2E_SERVER: SERVER_BUNDLE },
});
process.exit(result.status ?? 1);
