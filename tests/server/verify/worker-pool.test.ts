// The verifier runs in worker threads: the server's event loop stays free while a file is verified.
import { afterAll, describe, expect, it } from 'vitest';
import { VerifyPool } from '#server/modules/verify/worker-pool.ts';
import { corpusFile, hasCorpus } from './verify-support.ts';

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
