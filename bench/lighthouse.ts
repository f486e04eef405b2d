// Lighthouse (npm `lighthouse`, Debian's Chromium through chrome-launcher) on the signing room's route under
// Lighthouse's default mobile emulation (a mid-range phone, simulated slow 4G), against the built app served by
// server/main.ts. What it loads: the entry, the signing room's lazy chunk and its screen for a visitor without a
// room (no document is rendered: a room needs a launched flow and a link login). Goal: performance >= 90.
// `npx node bench/lighthouse.ts` alone, or `npm run bench -- lighthouse`.
import '../scripts/require-node24.ts';
import { rmSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { buildClientIfStale } from '../scripts/client-build.ts';
import { ensureChromium } from '../scripts/ensure-tools.ts';
import type { Figure } from './foundation.ts';
import { freshDataDir, median, startServer } from './lib.ts';

const PORT = 18121;
const ROUTE = '/#/h5/v1/signing_room';
/** Lighthouse varies from run to run: the median of a few. */
const RUNS = 3;
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

type Run = { score: number; fcp: number; lcp: number; tbt: number; cls: number; si: number };

async function once(url: string): Promise<Run> {
  const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      onlyCategories: ['performance'],
      logLevel: 'error',
    });
    if (!result) throw new Error('lighthouse gave no result');
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.message}`);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      fcp: audit('first-contentful-paint'),
      lcp: audit('largest-contentful-paint'),
      tbt: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      si: audit('speed-index'),
    };
  } finally {
    chrome.kill();
  }
}

export async function run(): Promise<Figure[]> {
  ensureChromium();
  buildClientIfStale();
  const dataDir = freshDataDir();
  const server = await startServer(dataDir, PORT);
  try {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await once(`${server.url}${ROUTE}`));
    const m = (key: keyof Run) => median(runs.map((r) => r[key]));
    return [
      {
        name: 'signing room, mobile: Lighthouse performance (median of 3)',
        value: m('score'),
        unit: 'score',
        budget: 90,
        lowerIsBetter: false,
      },
      { name: 'signing room, mobile: first contentful paint', value: Math.round(m('fcp')), unit: 'ms' },
      { name: 'signing room, mobile: largest contentful paint', value: Math.round(m('lcp')), unit: 'ms' },
      { name: 'signing room, mobile: total blocking time', value: Math.round(m('tbt')), unit: 'ms' },
      { name: 'signing room, mobile: cumulative layout shift', value: Number(m('cls').toFixed(3)), unit: '' },
      { name: 'signing room, mobile: speed index', value: Math.round(m('si')), unit: 'ms' },
    ];
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { printFigures } = await import('./report.ts');
  printFigures('lighthouse', await run());
}
