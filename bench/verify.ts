/**
 * Verification benchmark: warm time per file inside one process (median over repeats), the CLI's
 * whole-process time, and poppler's `pdfsig` whole-process time on the same 3-signature file, in one
 * run. The goal is a warm time below pdfsig's. Run alone with `npx node bench/verify.ts`; `run()` gives
 * the figures to bench/index.ts (`npm run bench verify`), `measure()` the raw numbers.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyPdf } from '../server/pdf/verify/verify-pdf.ts';
import type { Figure } from './foundation.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(repoRoot, '..', 'shared', 'pdf-corpus');
const THREE_SIGS = 'files/dss/dss-2058_dss-2058-QC-LTA-test.pdf';
/** where server/pdf/verify-cli.ts keeps its compile cache */
const CLI_CACHE = path.join(repoRoot, 'node_modules', '.cache', 'verify-cli');

export type VerifyBench = {
  file: string;
  warmMedianMs: number;
  /** CPU time (user + system) per warm verification: steadier than wall time on a busy machine */
  warmCpuMedianMs: number;
  /** the CLI's first run, with an empty compile cache (types stripped, code compiled) */
  cliFirstRunMs: number;
  /** the CLI's later runs (compile cache filled) */
  cliMedianMs: number;
  pdfsigMedianMs: number | null;
  corpusWarmMedianMs: number;
  corpusFiles: number;
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function wallMs(cmd: string, args: string[]): number {
  const t = performance.now();
  spawnSync(cmd, args, { cwd: repoRoot, stdio: 'ignore' });
  return performance.now() - t;
}

function hasPdfsig(): boolean {
  try {
    execFileSync('pdfsig', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function measure(repeats = 30): Promise<VerifyBench> {
  const file = path.join(corpus, THREE_SIGS);
  if (!existsSync(file)) throw new Error(`corpus file missing: ${file}`);
  const bytes = new Uint8Array(readFileSync(file));
  for (let i = 0; i < 10; i++) await verifyPdf(bytes, { trustAnchors: [] }); // warm-up (JIT)
  const warm: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    await verifyPdf(bytes, { trustAnchors: [] });
    warm.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  // whole corpus, warm: median per file
  const manifest = JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as { file: string }[];
  const perFile: number[] = [];
  for (const e of manifest) {
    const b = new Uint8Array(readFileSync(path.join(corpus, e.file)));
    await verifyPdf(b, { trustAnchors: [] });
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await verifyPdf(b, { trustAnchors: [] });
      times.push(performance.now() - t);
    }
    perFile.push(median(times));
  }
  // The CLI as a process: the Node 24 binary this bench runs on, without npm's own start-up.
  const cliArgs = ['server/pdf/verify-cli.ts', '--json', file];
  rmSync(CLI_CACHE, { recursive: true, force: true });
  const cliFirstRunMs = wallMs(process.execPath, cliArgs);
  const cli: number[] = [];
  for (let i = 0; i < 9; i++) cli.push(wallMs(process.execPath, cliArgs));
  let pdfsig: number | null = null;
  if (hasPdfsig()) {
    const ps: number[] = [];
    for (let i = 0; i < 9; i++) ps.push(wallMs('pdfsig', ['-no-ocsp', file]));
    pdfsig = median(ps);
  }
  return {
    file: THREE_SIGS,
    warmMedianMs: median(warm),
    warmCpuMedianMs: median(cpu),
    cliFirstRunMs,
    cliMedianMs: median(cli),
    pdfsigMedianMs: pdfsig,
    corpusWarmMedianMs: median(perFile),
    corpusFiles: manifest.length,
  };
}

/** Figures for `npm run bench`: the warm time's budget is pdfsig's whole-process time on the same file. */
export async function run(): Promise<Figure[]> {
  const r = await measure();
  const pdfsig = r.pdfsigMedianMs === null ? undefined : Math.round(r.pdfsigMedianMs * 10) / 10;
  return [
    { name: 'verifyPdf warm, 3 signatures (median)', value: r.warmMedianMs, unit: 'ms', budget: pdfsig },
    { name: 'verifyPdf warm CPU time, 3 signatures (median)', value: r.warmCpuMedianMs, unit: 'ms' },
    { name: 'verify CLI whole process, first run (empty compile cache)', value: r.cliFirstRunMs, unit: 'ms' },
    { name: 'verify CLI whole process (median)', value: r.cliMedianMs, unit: 'ms' },
    ...(pdfsig === undefined
      ? []
      : [{ name: 'pdfsig -no-ocsp whole process (median)', value: pdfsig, unit: 'ms' }]),
    {
      name: `verifyPdf warm, median over the ${r.corpusFiles} corpus files`,
      value: r.corpusWarmMedianMs,
      unit: 'ms',
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measure();
  const f = (x: number | null) => (x === null ? 'n/a (install poppler-utils)' : `${x.toFixed(1)} ms`);
  console.log(`verification of ${r.file} (3 signatures)`);
  console.log('| measure | time |');
  console.log('|---|---|');
  console.log(`| verifyPdf warm, in process (median) | ${f(r.warmMedianMs)} |`);
  console.log(`| verifyPdf warm, CPU time (median) | ${f(r.warmCpuMedianMs)} |`);
  console.log(`| verify CLI whole process, first run (empty compile cache) | ${f(r.cliFirstRunMs)} |`);
  console.log(`| verify CLI whole process (median) | ${f(r.cliMedianMs)} |`);
  console.log(`| pdfsig -no-ocsp whole process (median) | ${f(r.pdfsigMedianMs)} |`);
  console.log(
    `| verifyPdf warm, median over the ${r.corpusFiles} corpus files | ${f(r.corpusWarmMedianMs)} |`,
  );
}
