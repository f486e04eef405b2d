import './scripts/require-node24.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 18090);
// A fresh data folder for every run: the journeys start from an empty product.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'esign-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
const SMS_RESEND_SECONDS = 2;
process.env.E2E_SMS_RESEND_SECONDS = String(SMS_RESEND_SECONDS);

const chromiumArgs = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: '/usr/bin/chromium', args: chromiumArgs },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    // scripts/e2e.ts sets E2E_SERVER to the bundled server it has just brought up to date.
    command: `"${process.execPath}" "${process.env.E2E_SERVER ?? 'server/main.ts'}"`,
    url: `http://127.0.0.1:${PORT}/v1/health`,
    reuseExistingServer: false,
    timeout: 180_000, // a cold start on a busy 2-core machine has taken 54 s
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      // Links the server makes (embedded-signing URLs, message links) point at the address it listens on.
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      // Every journey comes from 127.0.0.1: per-address limits would stop the suite, not an attacker.
      SMS_MAX_PER_IP_HOUR: '100000',
      SMS_MAX_PER_PHONE_HOUR: '1000',
      LOGIN_MAX_PER_IP: '100000',
      // A second code to the same phone may follow after this many seconds (60 in production).
      SMS_RESEND_SECONDS: String(SMS_RESEND_SECONDS),
      // Partner pages that frame the app in e2e/embedding.spec.ts (same site, another port) and in
      // e2e/cross-site.spec.ts (another site: localhost), served by small servers on these origins.
      PARTNER_ZYPT_ORIGINS: `http://127.0.0.1:${PORT + 1} http://localhost:${PORT + 6}`,
      PARTNER_ZHDB_ORIGINS: `http://127.0.0.1:${PORT + 2}`,
      // The integrators of e2e/integrator.spec.ts and e2e/cross-site.spec.ts frame embedded signing from these
      // origins (their pages are served there).
      FRAME_ANCESTORS: `http://127.0.0.1:${PORT + 4} http://localhost:${PORT + 7}`,
      // Background jobs (webhook deliveries, sweeps) are polled every second rather than every 5.
      JOBS_POLL_SECONDS: '1',
      // Platform administrators of e2e/package.spec.ts (they confirm payments on /manage/admin/packages).
      PLATFORM_ADMIN_PHONES: '13700000901,13700000902',
    },
  },
});
