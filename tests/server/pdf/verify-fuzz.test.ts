import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerifyError } from '../../../server/pdf/verify/errors.ts';
import { verifyPdf } from '../../../server/pdf/verify/verify-pdf.ts';
import { createPkiFixture, type PkiFixture } from '../fixtures/pki.ts';
import { corpusFile, hasCorpus, manifest } from '../fixtures/pdf-corpus.ts';
import { demoContract, parties } from '../fixtures/demo-contract.ts';
import { mutate, prng } from '../fixtures/pdf-mutations.ts';

const CASES = 2000;
const SEED = 0x5eed2024;

/** True when a byte any signature of the original signs differs (or is gone) in the mutated file. */
function signedBytesChanged(original: Uint8Array, mutated: Uint8Array, ranges: number[][]): boolean {
  for (const [a, b, c, d] of ranges) {
    for (const [from, len] of [
      [a, b],
      [c, d],
    ]) {
      if (from + len > mutated.length) return true;
      if (Buffer.compare(original.subarray(from, from + len), mutated.subarray(from, from + len)) !== 0)
        return true;
    }
  }
  return false;
}

type Source = { name: string; bytes: Uint8Array; passes: boolean; ranges: number[][] };

let fx: PkiFixture;
const sources: Source[] = [];

beforeAll(async () => {
  // files under 100 kB keep the run inside the CI budget; they include every structure kind
  const files = manifest()
    .filter((e) => e.size < 100_000)
    .map((e) => ({ name: e.file, bytes: corpusFile(e.file) }));
  fx = await createPkiFixture();
  const demo = await demoContract(fx, await parties(fx));
  files.push({ name: 'demo-bt', bytes: demo.bt }, { name: 'demo-lta', bytes: demo.lta });
  for (const f of files) {
    const r = await verifyPdf(f.bytes, { trustAnchors: [] });
    const ranges = r.signatures.flatMap((s) => (s.byteRange?.length === 4 ? [s.byteRange] : []));
    sources.push({ ...f, passes: r.trustAside.verdict === 'TOTAL_PASSED', ranges });
  }
}, 120_000);
afterAll(() => fx?.close());

describe.skipIf(!hasCorpus)('fuzzing the verifier with mutated signed files', () => {
  it(`${CASES} seeded mutations: a report or a typed error, and never a pass once signed bytes changed`, {
    timeout: 300_000,
  }, async () => {
    const rnd = prng(SEED);
    const outcomes = { report: 0, typedError: 0, signedChanged: 0 };
    const signed = sources.filter((s) => s.passes);
    expect(signed.length).toBeGreaterThan(10);
    for (let i = 0; i < CASES; i++) {
      // every other case mutates a signed file that passes untouched: the property below applies to it
      const pool = i % 2 === 0 ? signed : sources;
      const f = pool[Math.floor(rnd() * pool.length)];
      const { bytes, how } = mutate(f.bytes, rnd);
      const changed = f.passes && signedBytesChanged(f.bytes, bytes, f.ranges);
      if (changed) outcomes.signedChanged++;
      try {
        const report = await verifyPdf(bytes, { trustAnchors: [], timeLimitMs: 5000 });
        expect(typeof report.verdict).toBe('string');
        if (changed && report.trustAside.verdict === 'TOTAL_PASSED')
          throw new Error(`case ${i} (${f.name}, ${how}): signed bytes changed, yet TOTAL_PASSED`);
        outcomes.report++;
      } catch (err) {
        if (!(err instanceof VerifyError)) throw new Error(`case ${i} (${f.name}, ${how}): ${String(err)}`);
        outcomes.typedError++;
      }
    }
    expect(outcomes.report + outcomes.typedError).toBe(CASES);
    // the property was exercised, not vacuous
    expect(outcomes.signedChanged).toBeGreaterThan(CASES / 4);
  });
});
