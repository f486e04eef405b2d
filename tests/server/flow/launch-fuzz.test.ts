// Fuzzing the launch (issue 23, L2): seeded mutations of a few base PDFs go through the real HTTP calls,
// upload and then launch, and every answer must be a success or a documented refusal ({code, msg} with a
// business code, in the reader's language), never a 500; the server still answers normally afterwards.
// The mutations are the verifier fuzz's (tests/server/fixtures/pdf-mutations.ts: byte flips, truncations,
// duplicated runs, inserted tokens, changed digits, repeated tokens for deep nesting) plus references
// rewritten into cycles (cyclic-pdfs.ts), which reach the footer's pdf-lib rewrite with the offsets intact.
// Every third case places the signature by a keyword (pdf.js reads the mutated file: a file it cannot
// read has no keyword, a named refusal). A few of the launched cycles are also signed: signed, or refused
// by name.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { getAuditTrail } from '#contract/calls/flow.ts';
import { Code } from '#contract/codes.ts';
import { type CallResult, appForFile } from '../helper.ts';
import { mutate, prng } from '../fixtures/pdf-mutations.ts';
import { indirectResources, rewriteRef } from '../fixtures/cyclic-pdfs.ts';
import {
  contractPdf,
  ok,
  personWithCert,
  type Signer,
  signByLink,
  tryLaunchForOne,
  uploadPdf,
} from '../fixtures/flow.ts';

const CASES = 300;
const SEED = 0x1a2c23;
/** How many launched cycles are signed too (a signature costs far more than a launch). */
const SIGNED_SAMPLE = 5;
const WILD = join(import.meta.dirname, '../../../../shared/pdf-wild/files');
/** Small real-world files of each kind: sound, damaged, encrypted (empty password), object streams. */
const WILD_FILES = [
  'xobject-image.pdf',
  'issue5599.pdf',
  'issue17554.pdf',
  'operator_list_cycle.pdf',
  'issue2177.pdf',
  'issue7665.pdf',
  'scorecard_reduced.pdf',
];

/** Every refusal upload, launch and signing may give such files, by its documented code. */
const REFUSALS = new Set<number>([Code.DocumentRejected, Code.Refused, Code.BadRequest]);

const t = appForFile({ FREE_SIGNING_ALLOWANCE: '10000', SMS_MAX_PER_PHONE_HOUR: '1000' });
let owner: Signer;
const bases: { name: string; bytes: Uint8Array }[] = [];

beforeAll(async () => {
  owner = await personWithCert(t, '周九');
  bases.push(
    { name: 'contract', bytes: await contractPdf(1) },
    { name: 'indirect-resources', bytes: indirectResources() },
  );
  for (const f of WILD_FILES)
    if (existsSync(join(WILD, f)))
      bases.push({ name: f, bytes: new Uint8Array(readFileSync(join(WILD, f))) });
}, 120_000);

/** A success, or a refusal of a documented code with a message; never the server's own failure. */
function expectAnswered(res: CallResult, what: string): void {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(200);
  expect(res.body.code, `${what}: ${res.body.msg}`).not.toBe(Code.Internal);
  if (res.body.code === 0) return;
  expect(REFUSALS.has(res.body.code), `${what}: ${JSON.stringify(res.body)}`).toBe(true);
  expect(typeof res.body.msg === 'string' && res.body.msg.length > 0, what).toBe(true);
  expect(res.body.data ?? null, what).toBeNull();
}

async function uploadAndLaunch(bytes: Uint8Array, what: string, byKeyword = false) {
  const up = await uploadPdf(owner.agent, bytes, 0);
  expectAnswered(up, `${what} upload`);
  if (up.body.code !== 0) return { up, launched: null };
  const { documentId, pageSizes } = up.body.data;
  const { widthPt: w, heightPt: h } = pageSizes[0];
  const launched = await tryLaunchForOne(owner.agent, owner, {
    documentId,
    title: what.slice(0, 60),
    position: byKeyword
      ? { keyword: 'e', widthMm: 5, heightMm: 5 }
      : { page: 1, rect: [0, 0, Math.min(60, w), Math.min(30, h)] },
  });
  expectAnswered(launched, `${what} launch`);
  return { up, launched };
}

describe('fuzzing upload + launch through HTTP', () => {
  test(`${CASES} seeded mutations: launched or refused by name, never a 500`, {
    timeout: 180_000,
  }, async () => {
    // pdf-lib warns on the console about every odd number it parses: hundreds of lines, nothing to read
    const quiet = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await fuzz();
    } finally {
      quiet.mockRestore();
    }
    // and the server still answers as before
    const after = await uploadAndLaunch(await contractPdf(2), 'after the fuzz');
    expect(after.launched?.body.code).toBe(0);
  });
});

async function fuzz(): Promise<void> {
  const rnd = prng(SEED);
  const seen = {
    uploadRefused: 0,
    launched: 0,
    launchRefused: 0,
    cycles: 0,
    cyclesWithoutFooter: 0,
    signed: 0,
  };
  for (let i = 0; i < CASES; i++) {
    const base = bases[i % bases.length];
    // two cases in five rewrite a reference into a cycle; every fourth of the others repeats a token
    const cycle = i % 5 < 2 ? rewriteRef(base.bytes, rnd) : null;
    const { bytes, how } = cycle ?? mutate(base.bytes, rnd, { repeats: i % 4 === 0 });
    const what = `case ${i} (${base.name}, ${how})`;
    // every third case places its signature by a keyword: pdf.js reads the mutated file too
    const { launched } = await uploadAndLaunch(bytes, what, i % 3 === 2);
    if (!launched) {
      seen.uploadRefused++;
      continue;
    }
    if (launched.body.code !== 0) {
      seen.launchRefused++;
      continue;
    }
    seen.launched++;
    if (!cycle) continue;
    seen.cycles++;
    const flowId = launched.body.data.flowId;
    const trail = ok(
      await owner.agent.call<{ entries: { event: string; detail: string | null }[] }>(getAuditTrail, {
        userType: 0,
        flowId,
      }),
      `${what} trail`,
    );
    const detail = trail.entries.find((e) => e.event === 'launch')?.detail ?? '';
    if (!/without the verification footer/.test(detail)) continue;
    seen.cyclesWithoutFooter++;
    if (seen.signed >= SIGNED_SAMPLE) continue;
    // the launched cycle signs (or is refused by name): the signer's walks are bounded too
    t.clock.advance(61_000);
    const signed = await signByLink(t, t.agent(), owner);
    expectAnswered(signed, `${what} sign`);
    if (signed.body.code === 0) seen.signed++;
  }
  // the properties were exercised, not vacuous
  expect(seen.launched, JSON.stringify(seen)).toBeGreaterThan(CASES / 4);
  expect(seen.uploadRefused, JSON.stringify(seen)).toBeGreaterThan(0);
  expect(seen.cyclesWithoutFooter, JSON.stringify(seen)).toBeGreaterThan(5);
  expect(seen.signed, JSON.stringify(seen)).toBeGreaterThan(0);
}
