// The service's settings at work: extra trust anchors (VERIFY_TRUST_ANCHORS_DIR) and the per-address limit.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '#contract/codes.ts';
import { getVerifyReport } from '#contract/calls/verify.ts';
import { loadConfig } from '#server/config.ts';
import { loadVerifySettings } from '#server/modules/verify/testing.ts';
import { signerFromPki } from '#server/pdf/sign/cms.ts';
import { signPdf } from '#server/pdf/sign/sign-pdf.ts';
import { type TestApp, createTestApp } from '../helper.ts';
import { createPkiFixture, type PkiFixture } from '../fixtures/pki.ts';
import { contractSealPdf, makePdf } from '../fixtures/pdf-signing.ts';
import { checkFile } from '../fixtures/verify.ts';

let other: PkiFixture;
let foreign: Uint8Array;

/** Creates an app with some VERIFY_* variables set for its start only. */
async function appWith(env: Record<string, string>): Promise<TestApp> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await createTestApp();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

beforeAll(async () => {
  // Another CA than the platform's: a document signed under it is sound, but its signer unknown here.
  other = await createPkiFixture();
  const holder = { userType: 1 as const, accountId: '00000000-0000-4000-8000-0000000000aa' };
  await other.pki.issue({
    ...holder,
    name: '外部公司',
    organisation: '外部公司',
    idNumber: '91110000MA01ABCD2X',
  });
  const m = await other.pki.signer(holder);
  foreign = await signPdf(await makePdf({ pages: 1 }), {
    signer: signerFromPki(m!),
    appearance: { pdf: await contractSealPdf() },
    placement: { pageIndex: 0, rect: [300, 100, 420, 220] },
  });
}, 60_000);
afterAll(() => other?.close());

describe('VERIFY_TRUST_ANCHORS_DIR', () => {
  it('a signer of another CA is an unknown identity, and valid once that root is configured', async () => {
    const plain = await createTestApp();
    try {
      const r = await checkFile(plain.agent(), foreign);
      expect(r.body.data).toMatchObject({ status: 'unknownIdentity', verdict: 'INDETERMINATE' });
    } finally {
      await plain.close();
    }
    const dir = join(other.dir, 'anchors');
    mkdirSync(dir);
    other.file('anchors/other-root.pem', other.pki.rootPem);
    const t = await appWith({ VERIFY_TRUST_ANCHORS_DIR: dir });
    try {
      const r = await checkFile(t.agent(), foreign);
      expect(r.body.data).toMatchObject({ status: 'valid', verdict: 'TOTAL_PASSED' });
      expect(r.body.data.signatures[0]).toMatchObject({ trusted: true, trustSource: 'anchor' });
    } finally {
      await t.close();
    }
  }, 60_000);

  it('a folder without certificates stops the start, naming the variable', async () => {
    const dir = join(other.dir, 'empty-anchors');
    mkdirSync(dir);
    other.file('empty-anchors/readme.pem', 'not a certificate');
    await expect(appWith({ VERIFY_TRUST_ANCHORS_DIR: dir })).rejects.toThrow(/VERIFY_TRUST_ANCHORS_DIR/);
  }, 60_000);
});

describe('VERIFY_MAX_PER_IP_MINUTE', () => {
  it('refuses a client address beyond the limit, and serves it again the next minute', async () => {
    const t = await appWith({ VERIFY_MAX_PER_IP_MINUTE: '2' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) codes.push((await checkFile(t.agent(), foreign)).body.code);
      expect(codes).toEqual([0, 0, Code.RateLimited]);
      t.clock.advance(61_000);
      expect((await checkFile(t.agent(), foreign)).body.code).toBe(0);
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe('VERIFY_MAX_KEPT_REPORTS', () => {
  it('keeps at most that many reports: the oldest go first, before their hour is up', async () => {
    const t = await appWith({ VERIFY_MAX_KEPT_REPORTS: '2' });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await checkFile(t.agent(), foreign);
        expect(res.body.code).toBe(0);
        ids.push(res.body.data.reportId);
        t.clock.advance(1000); // distinct expiry times, in upload order
      }
      const kept = [];
      for (const reportId of ids)
        kept.push((await t.agent().call(getVerifyReport, { userType: 0, reportId })).body.data !== null);
      expect(kept).toEqual([false, false, true, true]);
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe('worker memory settings', () => {
  it('have defaults and name a bad value', () => {
    const config = loadConfig({});
    expect(loadVerifySettings(config, {})).toMatchObject({
      workerHeapMb: 256,
      workerMaxJobs: 200,
      maxKeptReports: 5000,
    });
    expect(() => loadVerifySettings(config, { VERIFY_WORKER_HEAP_MB: '8' })).toThrow(/VERIFY_WORKER_HEAP_MB/);
    expect(() => loadVerifySettings(config, { VERIFY_WORKER_MAX_JOBS: '0' })).toThrow(
      /VERIFY_WORKER_MAX_JOBS/,
    );
  });
});
