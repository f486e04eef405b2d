// Playwright uses Debian's Chromium, never a browser of its own download (README, "Tests").
// When /usr/bin/chromium or the CJK fonts are missing, install them from Debian's packages.
import './require-node24.ts';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

function hasPackage(name: string): boolean {
  return spawnSync('dpkg', ['-s', name], { stdio: 'ignore' }).status === 0;
}

/** Installs chromium and fonts-noto-cjk with apt-get when they are missing. */
export function ensureChromium(): void {
  const missing = [
    ...(existsSync(CHROMIUM) ? [] : ['chromium']),
    ...(hasPackage('fonts-noto-cjk') ? [] : ['fonts-noto-cjk']),
  ];
  if (missing.length === 0) return;
  console.log(`e2e: installing ${missing.join(' ')} from Debian's packages ...`);
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const run = (args: string[]) =>
    execFileSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  run(['apt-get', 'update', '-q']);
  run(['apt-get', 'install', '-y', '-q', ...missing]);
}

if (import.meta.main) ensureChromium();
