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
