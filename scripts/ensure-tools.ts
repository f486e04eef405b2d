// The test command's external tools, all from Debian's packages: Debian's Chromium and CJK fonts for
// Playwright (never a browser of a test tool's own download), and the independent verifiers the server
// tests check signatures with (poppler's pdfsig/pdftoppm/pdftotext, qpdf, NSS's certutil, openssl).
// Missing ones are installed with apt-get.
import './require-node24.ts';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

/** Debian package → a file that shows it is installed. */
const PACKAGES: Record<string, string> = {
  chromium: CHROMIUM,
  'fonts-noto-cjk': '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  'poppler-utils': '/usr/bin/pdfsig',
  qpdf: '/usr/bin/qpdf',
  'libnss3-tools': '/usr/bin/certutil',
  openssl: '/usr/bin/openssl',
  // README.md's integrator example, run by tests/server/open/readme-example.test.ts.
  curl: '/usr/bin/curl',
  // The several-instances set-up (scripts/cluster.ts) and `npm run test:pg`.
  postgresql: '/usr/bin/pg_ctlcluster',
  haproxy: '/usr/sbin/haproxy',
};

function isInstalled(pkg: string): boolean {
  return existsSync(PACKAGES[pkg]) || spawnSync('dpkg', ['-s', pkg], { stdio: 'ignore' }).status === 0;
}

/** Installs the packages of `wanted` that are missing (all of them by default). */
export function ensureTools(wanted: string[] = Object.keys(PACKAGES)): void {
  const missing = wanted.filter((p) => !isInstalled(p));
  if (missing.length === 0) return;
  console.log(`test tools: installing ${missing.join(' ')} from Debian's packages ...`);
  const asRoot = process.getuid?.() === 0;
  const run = (args: string[]) =>
    execFileSync(asRoot ? args[0] : 'sudo', asRoot ? args.slice(1) : args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  run(['apt-get', 'update', '-q']);
  run(['apt-get', 'install', '-y', '-q', ...missing]);
}

/** Playwright's part: Debian's Chromium and the CJK fonts. */
export const ensureChromium = () => ensureTools(['chromium', 'fonts-noto-cjk']);

if (import.meta.main) ensureTools();
