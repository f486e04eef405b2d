/**
 * Verification benchmark: warm time per file inside one process (median over repeats), the CLI's
 * whole-process time, and poppler's `pdfsig` whole-process time on the same 3-signature file.
 * Run alone with `npx node bench/verify.ts`; `run()` returns the figures for bench/index.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyPdf } from '../server/pdf/verify/verify-pdf.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(repoRoot, '..', 'shared', 'pdf-corpus');
const THREE_SIGS = 'files/dss/dss-2058_dss-2058-QC-LTA-test.pdf';

export type VerifyBench = {
  file: string;
  warmMedianMs: number;
  cliMedianMs: number;
  pdfsigMedianMs: number | null;
  corpusWarmMedianMs: number;
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

export async function run(repeats = 20): Promise<VerifyBench> {
  const file = path.join(corpus, THREE_SIGS);
  if (!existsSync(file)) throw new Error(`corpus file missing: ${file}`);
  const bytes = new Uint8Array(readFileSync(file));
  for (let i = 0; i < 5; i++) await verifyPdf(bytes, { trustAnchors: [] }); // warm-up (JIT)
  const warm: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t = performance.now();
    await verifyPdf(bytes, { trustAnchors: [] });
    warm.push(performance.now() - t);
  }
  // whole corpus, warm: median per file
  const manifest = JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as { file: string }[];
  const perFile: number[] = [];
  for (const e of manifest) {
    const b = new Uint8Array(readFileSync(path.join(corpus, e.file)));
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await verifyPdf(b, { trustAnchors: [] });
      times.push(performance.now() - t);
    }
    perFile.push(median(times));
  }
  // The CLI as a process: the Node 24 binary this bench runs on, without npm's own start-up.
  const cli: number[] = [];
  for (let i = 0; i < 5; i++)
    cli.push(wallMs(process.execPath, ['server/pdf/verify-cli.ts', '--json', file]));
  let pdfsig: number | null = null;
  if (hasPdfsig()) {
    const ps: number[] = [];
    for (let i = 0; i < 10; i++) ps.push(wallMs('pdfsig', ['-no-ocsp', file]));
    pdfsig = median(ps);
  }
  return {
    file: THREE_SIGS,
    warmMedianMs: median(warm),
    cliMedianMs: median(cli),
    pdfsigMedianMs: pdfsig,
    corpusWarmMedianMs: median(perFile),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run();
  const f = (x: number | null) => (x === null ? 'n/a (install poppler-utils)' : `${x.toFixed(1)} ms`);
  console.log(`verification of ${r.file} (3 signatures)`);
  console.log('| measure | time |');
  console.log('|---|---|');
  console.log(`| verifyPdf warm, in process (median) | ${f(r.warmMedianMs)} |`);
  console.log(`| verify CLI whole process (median) | ${f(r.cliMedianMs)} |`);
  console.log(`| pdfsig -no-ocsp whole process (median) | ${f(r.pdfsigMedianMs)} |`);
  console.log(`| verifyPdf warm, median over the 34 corpus files | ${f(r.corpusWarmMedianMs)} |`);
}
