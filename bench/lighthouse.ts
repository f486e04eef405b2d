// Lighthouse (npm `lighthouse`, Debian's Chromium through chrome-launcher) on the signing room's route under
// Lighthouse's default mobile emulation (a mid-range phone, simulated slow 4G), against the built app served by
// server/main.ts. What it loads: the entry, the signing room's lazy chunk and its screen for a visitor without a
// room (no document is rendered: a room needs a launched flow and a link login). Goal: performance >= 90.
// The build writes .br/.gz beside every asset (vite.config.ts); the figure assumes the server sends them
// (@fastify/static `preCompressed`), as a phone on slow 4G needs. Each run's notes (LCP element, shifts, long
// tasks, unused JS, bytes) print above the figures.
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

type Run = { score: number; fcp: number; lcp: number; tbt: number; cls: number; si: number; notes: string[] };

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];
type Item = Record<string, unknown> & { url?: string; node?: { nodeLabel?: string; selector?: string } };
const itemsOf = (lhr: Lhr, id: string): Item[] =>
  ((lhr.audits[id]?.details as { items?: Item[] } | undefined)?.items ?? []).filter(
    (i) => typeof i === 'object' && i !== null,
  );
const short = (url: unknown) => String(url ?? '').replace(/^https?:\/\/[^/]+/, '');

/** What costs, in a few lines: the LCP element, layout shifts, long tasks, unused and heaviest scripts. */
function notesOf(lhr: Lhr): string[] {
  const notes: string[] = [];
  const lcp = itemsOf(lhr, 'lcp-breakdown-insight').find((i) => i.type === 'node');
  if (lcp) notes.push(`LCP element: ${lcp.selector ?? ''} "${String(lcp.nodeLabel ?? '').slice(0, 60)}"`);
  const cls = itemsOf(lhr, 'cls-culprits-insight').flatMap((t) => (t.items as Item[] | undefined) ?? []);
  for (const shift of cls.filter((i) => i.node?.selector))
    notes.push(`layout shift ${Number(shift.score).toFixed(3)}: ${shift.node?.selector}`);
  for (const task of itemsOf(lhr, 'long-tasks').slice(0, 4))
    notes.push(
      `long task ${Math.round(Number(task.duration))} ms at ${Math.round(Number(task.startTime))} ms: ${short(task.url)}`,
    );
  for (const js of itemsOf(lhr, 'unused-javascript').slice(0, 4))
    notes.push(
      `unused JS ${Math.round(Number(js.wastedBytes) / 1024)} of ${Math.round(Number(js.totalBytes) / 1024)} KiB: ${short(js.url)}`,
    );
  const weight = lhr.audits['total-byte-weight'];
  notes.push(
    `transferred ${Math.round((weight?.numericValue ?? 0) / 1024)} KiB in ${lhr.audits['network-requests'] ? itemsOf(lhr, 'network-requests').length : '?'} requests`,
  );
  const uncompressed = itemsOf(lhr, 'network-requests').filter(
    (r) =>
      r.resourceType === 'Script' &&
      Number(r.transferSize) >= Number(r.resourceSize) &&
      Number(r.resourceSize) > 10_000,
  );
  if (uncompressed.length > 0) notes.push(`${uncompressed.length} scripts sent without compression`);
  return notes;
}

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
      notes: notesOf(lhr),
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
    const m = (key: Exclude<keyof Run, 'notes'>) => median(runs.map((r) => r[key]));
    // The notes of the median run say where the time goes (`LIGHTHOUSE_QUIET=1` leaves them out).
    const medianRun = [...runs].sort((a, b) => a.score - b.score)[Math.floor(runs.length / 2)];
    if (!process.env.LIGHTHOUSE_QUIET)
      for (const note of medianRun.notes) console.log(`  lighthouse: ${note}`);
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
