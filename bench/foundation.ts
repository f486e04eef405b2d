// Foundation budgets (issue 2): login page first-load JS (gzip), cold start, memory after start,
// p99 of getEsignLoginInfo at 50 concurrent connections.
import '../scripts/require-node24.ts';
import { rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { chromium } from '@playwright/test';
import { buildClientIfStale } from '../scripts/client-build.ts';
import { ensureChromium } from '../scripts/ensure-tools.ts';
import { freshDataDir, registerUser, rssMb, startServer } from './lib.ts';

export type Figure = { name: string; value: number; unit: string; budget?: number; lowerIsBetter?: boolean };

/** Gzipped bytes of every script the browser fetches to show the login page (entry, preloads, lazy route). */
async function loginPageJs(url: string): Promise<number> {
  ensureChromium();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
    ],
  });
  try {
    const page = await browser.newPage();
    const scripts = new Map<string, Promise<Buffer>>();
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script' || res.url().endsWith('.js'))
        scripts.set(res.url(), res.body());
    });
    await page.goto(`${url}/#/loginPage`, { waitUntil: 'networkidle' });
    // On a busy machine the entry can run for more than networkidle's 500 ms before the screen's chunks are
    // asked for: wait until the form is there, and a moment more for what the page loads after it shows.
    await page.locator('form button[type="submit"]').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1500);
    let total = 0;
    for (const body of scripts.values()) total += gzipSync(await body, { level: 9 }).length;
    return total;
  } finally {
    await browser.close();
  }
}

/** How long after ready the resident memory is read. */
const MEMORY_SETTLE_MS = 5000;

export async function run(): Promise<Figure[]> {
  buildClientIfStale();
  const figures: Figure[] = [];
  const dataDir = freshDataDir();

  // The very first start of a checkout also builds the database template (server/db/template.ts: initdb and
  // every migration, once per set of migrations); a fresh start after that copies it. Both are shown.
  const templateDir = freshDataDir();
  const first = await startServer(templateDir, 18101);
  figures.push({
    name: 'first start of this checkout (builds the database template if missing, CA)',
    value: first.readyMs,
    unit: 'ms',
  });
  await first.stop();
  rmSync(templateDir, { recursive: true, force: true });

  // Ready = /v1/health answers: the server listens and its database answers. On a fresh start the CA's keys
  // are still being made then (server/serve.ts); the calls that need the CA wait for it (pkiFor).
  const fresh = await startServer(dataDir, 18101);
  figures.push({
    name: 'fresh start on an empty PGlite data folder (template copy; new CA made beside, its calls wait)',
    value: fresh.readyMs,
    unit: 'ms',
    budget: 2000,
  });
  // The server's own CPU time (all threads) until ready: unlike the wall time, it does not grow when other
  // processes share the machine, so it tells a slow start from a busy machine.
  figures.push({
    name: 'fresh start, CPU time of the server until ready',
    value: fresh.readyCpuMs,
    unit: 'ms',
  });
  await fresh.stop();

  const server = await startServer(dataDir, 18101);
  figures.push({
    name: 'cold start on PGlite (existing data folder)',
    value: server.readyMs,
    unit: 'ms',
    budget: 3000,
  });
  figures.push({
    name: 'cold start, CPU time of the server until ready',
    value: server.readyCpuMs,
    unit: 'ms',
  });
  // BENCH_ONLY=start: the start figures only (`BENCH_ONLY=start npm run bench -- foundation`).
  if (process.env.BENCH_ONLY === 'start') {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    return figures;
  }
  // A start ends a few seconds after ready: the job system starts a second after listen, and start-up's
  // garbage goes back to the system once it runs (server/serve.ts). Read after that, as the memory a
  // running server keeps.
  await new Promise((r) => setTimeout(r, MEMORY_SETTLE_MS));
  figures.push({
    name: 'resident memory after start (5 s after ready: job system started, start-up garbage released)',
    value: rssMb(server.child.pid!),
    unit: 'MB',
    budget: 300,
  });
  try {
    figures.push({
      name: 'login page first-load JS (gzip)',
      value: (await loginPageJs(server.url)) / 1024,
      unit: 'kB',
      budget: 200,
    });

    const user = await registerUser(server.url, '13900000001');
    const load = (duration: number) =>
      autocannon({
        url: `${server.url}/v1/jinshang/login/api/csign/getEsignLoginInfo`,
        method: 'POST',
        connections: 50,
        duration,
        headers: { 'content-type': 'application/json', cookie: user.cookie, ...user.headers },
        body: JSON.stringify({ userType: 0 }),
      });
    // A 3 s warm-up at the same load first, as load tests do: the figure is the server's steady state, not
    // V8 compiling the handlers and growing its young generation (the first seconds' p99 is about 2x).
    await load(3);
    const result = await load(10);
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`getEsignLoginInfo: ${result.non2xx} non-2xx, ${result.errors} errors`);
    figures.push({
      name: 'getEsignLoginInfo p99 @ 50 connections',
      value: result.latency.p99,
      unit: 'ms',
      budget: 20,
    });
    figures.push({
      name: 'getEsignLoginInfo throughput @ 50 connections',
      value: result.requests.average,
      unit: 'req/s',
    });
  } finally {
    await server.stop();
  }
  return figures;
}

if (import.meta.main) {
  const { printFigures } = await import('./report.ts');
  printFigures('foundation', await run());
}
