// The verifier runs in worker threads: the server's event loop stays free while a file is verified.
import { afterAll, describe, expect, it } from 'vitest';
import { VerifyPool } from '#server/modules/verify/testing.ts';
import { corpusFile, hasCorpus } from '../fixtures/verify.ts';

const pool = new VerifyPool(2);
afterAll(() => pool.close());

describe.skipIf(!hasCorpus)('verification worker pool', () => {
  it('verifies in worker threads, several files at once, while this thread keeps running', async () => {
    const bytes = corpusFile('files/dss/dss-2058_dss-2058-QC-LTA-test.pdf');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const job = { bytes, trustAnchors: [], now: new Date().toISOString(), timeLimitMs: 5000, maxBytes: 1e8 };
    const results = await Promise.all([pool.run(job), pool.run(job), pool.run(job)]);
    clearInterval(timer);
    expect(pool.usesWorkers).toBe(true);
    for (const r of results) expect(r.ok && r.report.signatures.length).toBe(3);
    expect(ticks).toBeGreaterThan(0);
  });

  it('draws pages inside the worker where a form was filled after signing (the visual comparison)', async () => {
    // pyHanko's file: a form field's appearance stream overridden after the signature (allowed)
    const bytes = corpusFile('files/pyhanko/form-update-override-appearance-stream.pdf');
    const job = {
      bytes,
      trustAnchors: [],
      now: new Date().toISOString(),
      timeLimitMs: 10_000,
      maxBytes: 1e8,
    };
    const r = await pool.run(job);
    if (!r.ok) throw new Error(r.message);
    const notes = r.report.signatures.flatMap((s) => s.modifications);
    expect(notes.filter((n) => n.includes('visual comparison') || n.includes('not compared'))).toEqual([]);
    expect(r.report.signatures[0].modifiedAfterSigning).toBe('allowed');
    expect(r.report.trustAside.verdict).toBe('TOTAL_PASSED');
  });

  it('a typed error comes back for a file that is not a PDF', async () => {
    const r = await pool.run({
      bytes: new TextEncoder().encode('plain text'),
      trustAnchors: [],
      now: new Date().toISOString(),
      timeLimitMs: 5000,
      maxBytes: 1e8,
    });
    expect(r).toMatchObject({ ok: false, code: 'NOT_PDF' });
  });
});

describe.skipIf(!hasCorpus)('revocation questions from a worker', () => {
  it("reach the pool's hook in this thread and its answer comes back into the report", async () => {
    const asked: string[] = [];
    const withHook = new VerifyPool(1, async (cert) => {
      asked.push(cert.serialHex);
      return { status: 'revoked', revokedAt: new Date(0), source: 'main-thread' };
    });
    try {
      const bytes = corpusFile('files/dss/dss-2058_dss-2058-QC-LTA-test.pdf');
      const job = {
        bytes,
        trustAnchors: [],
        now: new Date().toISOString(),
        timeLimitMs: 30_000,
        maxBytes: 1e8,
      };
      const r = await withHook.run(job);
      expect(withHook.usesWorkers).toBe(true);
      expect(asked.length).toBeGreaterThan(0);
      if (!r.ok) throw new Error(r.message);
      const answered = r.report.signatures.filter((s) => s.revocationSource === 'main-thread');
      expect(answered.length).toBeGreaterThan(0);
      expect(answered.map((s) => s.signer?.serial)).toEqual(expect.arrayContaining([asked[0]]));
      // the Date crossed both thread boundaries intact
      expect(answered[0].revokedAt).toBe('1970-01-01T00:00:00.000Z');
    } finally {
      await withHook.close();
    }
  });
});

// Issue 16: what a worker holds goes back with it. Workers retire after a number of files, and a worker
// that dies under a job (its heap ceiling) fails that job alone; the pool carries on with fresh workers.
describe.skipIf(!hasCorpus)('worker retirement and death', () => {
  const job = () => ({
    bytes: corpusFile('files/pyhanko/minimal.pdf'),
    trustAnchors: [],
    now: new Date().toISOString(),
    timeLimitMs: 30_000,
    maxBytes: 1e8,
  });

  it('retires a worker after maxJobsPerWorker files and starts a fresh one', async () => {
    const retiring = new VerifyPool(1, undefined, { maxJobsPerWorker: 2 });
    try {
      for (let i = 0; i < 5; i++) expect((await retiring.run(job())).ok).toBe(true);
      expect(retiring.usesWorkers).toBe(true);
      // files 1-2, 3-4, 5: three workers
      expect(retiring.workersStarted).toBe(3);
    } finally {
      await retiring.close();
    }
  });

  it('a worker that dies under a job fails only that job; the next job gets a fresh worker', async () => {
    const dying = new VerifyPool(1, undefined, { heapLimitMb: 128 });
    try {
      expect((await dying.run(job())).ok).toBe(true);
      // A file that takes the worker a while, so the thread is ended while it works on it.
      const running = dying.run({
        ...job(),
        bytes: corpusFile('files/dss/dss-2058_dss-2058-QC-LTA-test.pdf'),
      });
      // What the heap ceiling does to a worker (ERR_WORKER_OUT_OF_MEMORY ends the thread), done directly.
      const slots = (dying as unknown as { slots: { worker: { terminate(): Promise<number> } }[] }).slots;
      await slots[0].worker.terminate();
      expect(await running).toMatchObject({ ok: false, code: 'UNREADABLE' });
      expect((await dying.run(job())).ok).toBe(true);
      expect(dying.usesWorkers).toBe(true);
      expect(dying.workersStarted).toBe(2);
    } finally {
      await dying.close();
    }
  });

  it('ends workers that stay idle, and starts one again for the next file', async () => {
    const idle = new VerifyPool(2, undefined, { idleMs: 300 });
    try {
      await Promise.all([idle.run(job()), idle.run(job())]);
      expect(idle.liveWorkers).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 1500));
      expect(idle.liveWorkers).toBe(0);
      expect((await idle.run(job())).ok).toBe(true);
      expect(idle.liveWorkers).toBe(1);
    } finally {
      await idle.close();
    }
  });
});
