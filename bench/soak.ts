/**
 * Soak under hostile input (issue 16): 10,000 fuzzed PDFs (mutated corpus files: flipped bytes, cuts,
 * duplicated and inserted runs, hostile tokens) uploaded to the public `checkPdf` of a real server process
 * over HTTP, a few at a time. Prints the server's resident memory after a warm-up and at the end, both
 * while busy and once idle (the verification workers have ended and the RSS has settled, see settle()); the
 * goal is less than 50 MB kept between the idle readings, printed as the first line of stdout (busy readings
 * swing by the workers' heaps, bounded by VERIFY_WORKER_HEAP_MB each). Progress goes to stderr. Long
 * (about 15 minutes on 2 cores): only `npm run bench -- soak` runs it, never the default test run.
 * `SOAK_UPLOADS`, `SOAK_WARMUP`, `SOAK_CONCURRENCY`, `SOAK_IDLE_MS` and `SOAK_PORT` change the run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { callPath } from '#contract/envelope.ts';
import { checkPdf } from '#contract/calls/verify.ts';
import { InMemoryCertRepository } from '../server/pki/cert-repository.ts';
import { createPki } from '../server/pki/pki.ts';
import { mutate, prng } from '../tests/server/fixtures/pdf-mutations.ts';
import type { Figure } from './foundation.ts';
import {
  freshDataDir,
  kindsChange,
  memoryByKind,
  root,
  rssMb,
  settle,
  startServer,
  threadsOf,
} from './lib.ts';

const corpus = path.resolve(root, '..', 'shared', 'pdf-corpus');
const UPLOADS = Number(process.env.SOAK_UPLOADS ?? 10_000);
const WARMUP = Number(process.env.SOAK_WARMUP ?? 1000);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 4);
const PORT = Number(process.env.SOAK_PORT ?? 18131);
const SEED = 0x50a6;
/** Progress goes to stderr while the run lasts; stdout's first line is the figure the issue asks for. */
const progress = (line: string) => process.stderr.write(`${line}\n`);

export type SoakResult = {
  uploads: number;
  warmup: number;
  rssStartMb: number;
  rssAfterWarmupMb: number;
  rssPeakMb: number;
  rssEndMb: number;
  rssEndIdleMb: number;
  /** RSS once the workers of the warm-up have ended (idle), before the measured uploads. */
  rssWarmIdleMb: number;
  /** Median RSS over the first and the last 1000 uploads after the warm-up. */
  firstBlockMedianMb: number;
  lastBlockMedianMb: number;
  seconds: number;
  answers: Record<string, number>;
  /** Idle RSS by kind of mapping (lib.ts memoryByKind), after the warm-up and at the end. */
  warmIdleByKind: Record<string, number>;
  endIdleByKind: Record<string, number>;
};

export async function measure(): Promise<SoakResult> {
  const manifest = JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as { file: string }[];
  const sources = manifest.map((e) => new Uint8Array(readFileSync(path.join(corpus, e.file))));
  // The CA made here first (as the server tests do): on a busy machine making it inside the server's start
  // can overrun fastify's plugin time-out, and it is not what this benchmark measures.
  const dataDir = freshDataDir('esign-soak-');
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  await createPki({
    dataDir,
    publicUrl: `http://localhost:${PORT}`,
    masterKey: undefined,
    isProduction: false,
    repository: new InMemoryCertRepository(),
    log: quiet,
  });
  const server = await startServer(dataDir, PORT, {
    VERIFY_MAX_PER_IP_MINUTE: '1000000',
    LOG_LEVEL: 'error',
  });
  const pid = server.child.pid!;
  const url = `${server.url}${callPath(checkPdf)}`;
  const rnd = prng(SEED);
  const answers: Record<string, number> = {};
  let peak = 0;
  // RSS swings by tens of MB within a run (workers start and retire, V8 and PGlite grow and shrink their
  // heaps): besides single readings, the median of the readings over the first and the last 1000 uploads.
  let samples: number[] = [];
  const sampler = setInterval(() => {
    const mb = rssMb(pid);
    peak = Math.max(peak, mb);
    samples.push(mb);
  }, 250);
  const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const upload = async () => {
    const src = sources[Math.floor(rnd() * sources.length)];
    const { bytes } = mutate(src, rnd, { repeats: true });
    const form = new FormData();
    form.append('userType', '0');
    form.append(
      'file',
      new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }),
      'fuzz.pdf',
    );
    const res = await fetch(url, { method: 'POST', body: form });
    const body = (await res.json().catch(() => ({ code: `http ${res.status}` }))) as {
      code: number | string;
    };
    const key = res.status === 200 ? String(body.code) : `http ${res.status}`;
    answers[key] = (answers[key] ?? 0) + 1;
    if (res.status >= 500) {
      // A server error on hostile input is a defect: keep the input to reproduce it.
      const kept = path.join(dataDir, `server-error-${answers[key]}.pdf`);
      writeFileSync(kept, bytes);
      progress(`soak: HTTP ${res.status} (${JSON.stringify(body)}); input kept in ${kept}`);
    }
  };
  const batch = async (count: number) => {
    let left = count;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left > 0) {
          left--;
          await upload();
        }
      }),
    );
  };
  const started = performance.now();
  try {
    const rssStartMb = rssMb(pid);
    await batch(WARMUP);
    const rssAfterWarmupMb = rssMb(pid);
    progress(`soak: ${WARMUP} warm-up uploads, RSS ${rssAfterWarmupMb.toFixed(0)} MB`);
    // What the process keeps, as opposed to what busy workers hold: read once the pool's workers have
    // ended (its idle time is 60 s) and V8 has given back its unused heap (settle), after the warm-up and
    // again at the end.
    const rssWarmIdleMb = await settle(pid);
    const warmIdleByKind = memoryByKind(pid);
    progress(
      `soak: idle after the warm-up, RSS by kind (MB) ${JSON.stringify(warmIdleByKind)}, threads ${threadsOf(pid)}`,
    );
    progress(`soak: idle after the warm-up, RSS ${rssWarmIdleMb.toFixed(0)} MB`);
    let firstBlockMedianMb = 0;
    let lastBlockMedianMb = 0;
    for (let done = 0; done < UPLOADS; ) {
      const n = Math.min(1000, UPLOADS - done);
      samples = [];
      await batch(n);
      done += n;
      lastBlockMedianMb = medianOf(samples);
      if (done === n) firstBlockMedianMb = lastBlockMedianMb;
      progress(
        `soak: ${done}/${UPLOADS} uploads, RSS ${rssMb(pid).toFixed(0)} MB (median over these ${n}: ${lastBlockMedianMb.toFixed(0)} MB)`,
      );
    }
    const rssEndMb = rssMb(pid);
    const rssEndIdleMb = await settle(pid);
    const endIdleByKind = memoryByKind(pid);
    progress(
      `soak: idle at the end, RSS by kind (MB) ${JSON.stringify(endIdleByKind)}, threads ${threadsOf(pid)}`,
    );
    return {
      uploads: UPLOADS,
      warmup: WARMUP,
      rssStartMb,
      rssAfterWarmupMb,
      rssPeakMb: Math.max(peak, rssEndMb),
      rssEndMb,
      rssEndIdleMb,
      rssWarmIdleMb,
      firstBlockMedianMb,
      lastBlockMedianMb,
      seconds: (performance.now() - started) / 1000,
      answers,
      warmIdleByKind,
      endIdleByKind,
    };
  } finally {
    clearInterval(sampler);
    await server.stop();
  }
}

/** Figures for `npm run bench -- soak`: growth of the resident memory from after the warm-up to the end. */
export async function run(): Promise<Figure[]> {
  const r = await measure();
  const kept = r.rssEndIdleMb - r.rssWarmIdleMb;
  console.log(
    `RSS growth after warm-up: ${kept.toFixed(1)} MB over ${r.uploads.toLocaleString('en')} uploads`,
  );
  console.log(
    `soak: idle RSS by kind, after the warm-up → at the end (MB): ${kindsChange(r.warmIdleByKind, r.endIdleByKind)}`,
  );
  console.log(`soak: answers by code ${JSON.stringify(r.answers)} in ${r.seconds.toFixed(0)} s`);
  return [
    { name: 'server RSS at start', value: r.rssStartMb, unit: 'MB' },
    { name: `server RSS after ${r.warmup} warm-up uploads`, value: r.rssAfterWarmupMb, unit: 'MB' },
    { name: `server RSS after ${r.uploads} more fuzzed uploads`, value: r.rssEndMb, unit: 'MB' },
    {
      name: 'server RSS idle after the warm-up (workers ended, settled)',
      value: r.rssWarmIdleMb,
      unit: 'MB',
    },
    { name: 'server RSS idle after the end (workers ended, settled)', value: r.rssEndIdleMb, unit: 'MB' },
    { name: 'server RSS peak during the run', value: r.rssPeakMb, unit: 'MB' },
    {
      name: 'RSS growth, single readings (after warm-up → end)',
      value: r.rssEndMb - r.rssAfterWarmupMb,
      unit: 'MB',
    },
    {
      name: `RSS growth over ${r.uploads} fuzzed uploads while busy (median over the first 1000 → over the last 1000)`,
      value: r.lastBlockMedianMb - r.firstBlockMedianMb,
      unit: 'MB',
    },
    {
      // What stays: a leak or a cache without bound shows here; busy workers' heaps (bounded by
      // VERIFY_WORKERS × VERIFY_WORKER_HEAP_MB) do not.
      name: `RSS kept over ${r.uploads} fuzzed uploads (idle after the warm-up → idle after the end)`,
      value: r.rssEndIdleMb - r.rssWarmIdleMb,
      unit: 'MB',
      budget: 50,
    },
  ];
}
