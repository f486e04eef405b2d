/**
 * Soak of uploads and launches under hostile input (issue 23): 2,000 mutated PDFs (a clean contract and the
 * corpus's real PDFs with flipped bytes, cuts, duplicated and inserted runs, hostile tokens, changed digits,
 * damaged cross-reference data) uploaded to a real server process on PGlite, by turns through the workspace
 * (multipart `uploadDocument`) and the integrator API (`POST /open/v1/documents`, base64); every upload the
 * server takes is launched (`launchFlow`, by turns with a keyword position and a position in millimetres), a
 * few at a time. Prints the server's resident memory before (idle once the set-up and a warm-up of every
 * path are done, settled), at its peak, and after (idle at the end, settled): the goal is at most 50 MB kept
 * between the idle readings, printed as the first line of stdout. Progress goes to stderr.
 * Only `npm run bench -- launch-soak` runs it (several minutes). `SOAK_LAUNCHES`, `SOAK_WARMUP`,
 * `SOAK_CONCURRENCY`, `SOAK_IDLE_MS`, `SOAK_PORT` change the run; `SOAK_SNAPSHOTS=<folder>` writes a heap
 * snapshot of the server at both idle readings there (`--heapsnapshot-signal`, which also runs a full GC).
 */
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createApiKey } from '#contract/calls/apikey.ts';
import { uploadDocument } from '#contract/calls/document.ts';
import { launchFlow } from '#contract/calls/flow.ts';
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
import { Browser, CallError, contractPdf, fetchSend, outboxCode, person } from './signers.ts';

const corpus = path.resolve(root, '..', 'shared', 'pdf-corpus');
const LAUNCHES = Number(process.env.SOAK_LAUNCHES ?? 2000);
const WARMUP = Number(process.env.SOAK_WARMUP ?? 60);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 4);
const PORT = Number(process.env.SOAK_PORT ?? 18133);
const SNAPSHOTS = process.env.SOAK_SNAPSHOTS;
const SEED = 0x1a23;
const progress = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Damaged cross-reference data: the startxref offset, an xref entry's offset, or the `xref` keyword itself. */
function damageXref(src: Uint8Array, rnd: () => number): { bytes: Uint8Array; how: string } {
  const b = Buffer.from(src);
  const text = b.toString('latin1');
  const kind = Math.floor(rnd() * 3);
  if (kind === 0) {
    const at = text.lastIndexOf('startxref');
    if (at >= 0) {
      const m = /startxref\s*(\d+)/.exec(text.slice(at));
      if (m) {
        const digits = String(Math.floor(rnd() * b.length * 2)).padStart(m[1].length, '0');
        const start = at + m[0].length - m[1].length;
        return {
          bytes: Buffer.concat([b.subarray(0, start), Buffer.from(digits), b.subarray(start + m[1].length)]),
          how: 'startxref offset',
        };
      }
    }
  }
  if (kind === 1) {
    const entries = [...text.matchAll(/(\d{10}) (\d{5}) n/g)];
    if (entries.length) {
      const e = entries[Math.floor(rnd() * entries.length)];
      b.write(String(Math.floor(rnd() * 1e10)).padStart(10, '0'), e.index, 'latin1');
      return { bytes: b, how: 'xref entry' };
    }
  }
  const at = text.lastIndexOf('xref');
  if (at >= 0) b.write('xrex', at, 'latin1');
  return { bytes: b, how: 'xref keyword' };
}

type Source = { bytes: Uint8Array; keyword: string | null };

export type LaunchSoakResult = {
  launches: number;
  rssStartMb: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  rssEndMb: number;
  rssAfterMb: number;
  seconds: number;
  answers: Record<string, number>;
  beforeByKind: Record<string, number>;
  afterByKind: Record<string, number>;
  serverErrors: number;
};

export async function measure(): Promise<LaunchSoakResult> {
  const manifest = JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as { file: string }[];
  const contract = await contractPdf();
  const sources: Source[] = [
    // The clean contract three times over: most of its mutations still upload, so launches are many.
    ...Array.from({ length: 3 }, () => ({ bytes: contract, keyword: 'Contract page 1' })),
    ...manifest.map((e) => ({
      bytes: new Uint8Array(readFileSync(path.join(corpus, e.file))),
      keyword: null,
    })),
  ];
  const dataDir = freshDataDir('esign-launch-soak-');
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  await createPki({
    dataDir,
    publicUrl: `http://localhost:${PORT}`,
    masterKey: undefined,
    isProduction: false,
    repository: new InMemoryCertRepository(),
    log: quiet,
  });
  const env: Record<string, string> = {
    LOG_LEVEL: 'error',
    FREE_SIGNING_ALLOWANCE: '1000000',
    OPEN_API_RATE_PER_MINUTE: '1000000',
    SMS_MAX_PER_PHONE_HOUR: '10000',
    SMS_MAX_PER_IP_HOUR: '100000',
  };
  if (SNAPSHOTS) {
    mkdirSync(SNAPSHOTS, { recursive: true });
    env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${SNAPSHOTS}`;
  }
  const server = await startServer(dataDir, PORT, env);
  const pid = server.child.pid!;
  const snapshot = async (label: string) => {
    if (!SNAPSHOTS) return;
    const before = new Set(readdirSync(SNAPSHOTS));
    process.kill(pid, 'SIGUSR2');
    for (let i = 0; i < 600; i++) {
      await sleep(1000);
      const made = readdirSync(SNAPSHOTS).filter((f) => !before.has(f) && f.endsWith('.heapsnapshot'));
      // written when its size stops changing
      if (made.length) {
        const file = path.join(SNAPSHOTS, made[0]);
        const size = statSync(file).size;
        await sleep(2000);
        if (size > 0 && statSync(file).size === size) {
          progress(
            `launch-soak: heap snapshot ${label}: ${file} (${(size / 1048576).toFixed(0)} MB); RSS after it ${rssMb(pid).toFixed(0)} MB, by kind ${JSON.stringify(memoryByKind(pid))}`,
          );
          return;
        }
      }
    }
  };
  const send = fetchSend(server.url);
  const setupKit = { newBrowser: () => new Browser(send), code: outboxCode(server.url) };
  const launcher = await person(setupKit, '13600000000');
  const signer = await person(setupKit, '13600000001');
  const key = await launcher.b.call<{ secret: string }>(createApiKey, {
    userType: 0,
    name: 'soak',
    scopes: ['flows:write', 'flows:read', 'documents:read'],
  });

  const rnd = prng(SEED);
  const answers: Record<string, number> = {};
  const count = (what: string) => {
    answers[what] = (answers[what] ?? 0) + 1;
  };
  let serverErrors = 0;
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 250);

  const mutated = (src: Source) => {
    const r = rnd();
    if (r < 0.15) return damageXref(src.bytes, rnd);
    return mutate(src.bytes, rnd, { repeats: true });
  };

  /** One upload (by turns workspace or integrator API) and, when taken, its launch. */
  const round = async (i: number) => {
    const src = sources[Math.floor(rnd() * sources.length)];
    const { bytes, how } = mutated(src);
    let documentId: string | null = null;
    const via = i % 2 === 0 ? 'workspace' : 'open';
    try {
      if (via === 'workspace') {
        documentId = (await launcher.b.call<{ documentId: string }>(uploadDocument, { userType: 0 }, bytes))
          .documentId;
      } else {
        const res = await fetch(`${server.url}/open/v1/documents`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            filename: 'soak.pdf',
            contentBase64: Buffer.from(bytes).toString('base64'),
          }),
        });
        const body = (await res.json().catch(() => null)) as {
          code: number;
          data: { documentId: string };
        } | null;
        if (res.status === 201 && body) documentId = body.data.documentId;
        else throw new CallError('open uploadDocument', res.status, body?.code ?? null, '');
      }
      count(`upload ok`);
    } catch (err) {
      noteFailure('upload', err, bytes, how);
      return;
    }
    try {
      await launcher.b.call(launchFlow, {
        userType: 0,
        title: `soak ${i}`,
        documentIds: [documentId],
        steps: [
          {
            parties: [
              {
                kind: 'person',
                name: '张三',
                phone: signer.phone,
                positions: [
                  src.keyword && i % 4 < 2
                    ? { documentId, keyword: src.keyword }
                    : { documentId, page: 1, mm: { left: 20, top: 20, width: 30, height: 30 } },
                ],
              },
            ],
          },
        ],
      });
      count('launch ok');
    } catch (err) {
      noteFailure('launch', err, bytes, how);
    }
  };
  const noteFailure = (what: string, err: unknown, bytes: Uint8Array, how: string) => {
    if (!(err instanceof CallError)) throw err;
    count(`${what} ${err.status >= 400 ? `http ${err.status}` : `code ${err.code}`}`);
    if (err.status >= 500) {
      serverErrors += 1;
      const kept = path.join(dataDir, `server-error-${what}-${serverErrors}.pdf`);
      writeFileSync(kept, bytes);
      progress(`launch-soak: ${what} HTTP ${err.status} (${err.message}; ${how}); input kept in ${kept}`);
    }
  };
  let next = 0;
  const batch = async (n: number) => {
    const end = next + n;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < end) await round(next++);
      }),
    );
  };

  const started = performance.now();
  try {
    const rssStartMb = rssMb(pid);
    // Every path once before the first reading (pdf.js, fonts, the QR code, the footer): what a first use
    // loads is not what a soak looks for.
    await batch(WARMUP);
    const rssBeforeMb = await settle(pid);
    const beforeByKind = memoryByKind(pid);
    await snapshot('before');
    progress(
      `launch-soak: before (idle after set-up and ${WARMUP} warm-up rounds) RSS ${rssBeforeMb.toFixed(0)} MB, by kind ${JSON.stringify(beforeByKind)}, threads ${threadsOf(pid)}`,
    );
    peak = 0;
    for (let done = 0; done < LAUNCHES; ) {
      const n = Math.min(250, LAUNCHES - done);
      await batch(n);
      done += n;
      progress(
        `launch-soak: ${done}/${LAUNCHES} rounds, RSS ${rssMb(pid).toFixed(0)} MB, answers ${JSON.stringify(answers)}`,
      );
    }
    const rssEndMb = rssMb(pid);
    const rssAfterMb = await settle(pid);
    const afterByKind = memoryByKind(pid);
    progress(`launch-soak: after, RSS by kind ${JSON.stringify(afterByKind)}, threads ${threadsOf(pid)}`);
    await snapshot('after');
    return {
      launches: LAUNCHES,
      rssStartMb,
      rssBeforeMb,
      rssPeakMb: Math.max(peak, rssEndMb),
      rssEndMb,
      rssAfterMb,
      seconds: (performance.now() - started) / 1000,
      answers,
      beforeByKind,
      afterByKind,
      serverErrors,
    };
  } finally {
    clearInterval(sampler);
    await server.stop();
  }
}

export async function run(): Promise<Figure[]> {
  const r = await measure();
  const kept = r.rssAfterMb - r.rssBeforeMb;
  console.log(
    `${kept.toFixed(1)} MB RSS kept over ${r.launches.toLocaleString('en')} mutated uploads and launches (before ${r.rssBeforeMb.toFixed(0)} MB, peak ${r.rssPeakMb.toFixed(0)} MB, after ${r.rssAfterMb.toFixed(0)} MB, idle and settled)`,
  );
  console.log(
    `launch-soak: idle RSS by kind, before → after (MB): ${kindsChange(r.beforeByKind, r.afterByKind)}`,
  );
  console.log(`launch-soak: answers ${JSON.stringify(r.answers)} in ${r.seconds.toFixed(0)} s`);
  return [
    { name: 'server RSS after start and set-up', value: r.rssStartMb, unit: 'MB' },
    { name: 'server RSS before (idle after the warm-up, settled)', value: r.rssBeforeMb, unit: 'MB' },
    { name: `server RSS peak over ${r.launches} rounds`, value: r.rssPeakMb, unit: 'MB' },
    { name: 'server RSS at the end, busy', value: r.rssEndMb, unit: 'MB' },
    { name: 'server RSS after (idle at the end, settled)', value: r.rssAfterMb, unit: 'MB' },
    { name: 'server errors (HTTP 5xx)', value: r.serverErrors, unit: '' },
    {
      name: `RSS kept over ${r.launches} mutated uploads and launches (before → after)`,
      value: r.rssAfterMb - r.rssBeforeMb,
      unit: 'MB',
      budget: 50,
    },
  ];
}
