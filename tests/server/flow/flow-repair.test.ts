// A contract whose cross-reference data is damaged (every offset wrong, as after a careless edit) goes
// through HTTP: it is repaired once at launch, before the first signature; the audit trail records
// "repaired before signing" with the hashes of the damaged and the repaired file; the signed result passes
// the platform verifier and pdfsig.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { SIGNED_PDF_PATH } from '#contract/calls/document.ts';
import { getAuditTrail } from '#contract/calls/flow.ts';
import { appForFile } from '../helper.ts';
import { pdfsigReport } from '../fixtures/pdf-signing.ts';
import {
  contractPdf,
  expectAllPassed,
  getBytes,
  ok,
  personWithCert,
  type Signer,
  signByLink,
  tryLaunchForOne,
  uploadPdf,
} from '../fixtures/flow.ts';

const t = appForFile();
let owner: Signer;

beforeAll(async () => {
  owner = await personWithCert(t, '赵六');
}, 120_000);

describe('damaged cross-reference data through the product', () => {
  test('repaired once at launch, recorded in the audit trail, signed and valid', async () => {
    const good = Buffer.from(await contractPdf(2));
    // junk after the header: every offset of the table now points 24 bytes short
    const damaged = new Uint8Array(
      Buffer.concat([good.subarray(0, 9), Buffer.from('% inserted by an editor\n'), good.subarray(9)]),
    );
    const damagedSha = createHash('sha256').update(damaged).digest('hex');
    const up = ok(await uploadPdf(owner.agent, damaged, 0), 'upload');
    const documentId = up.documentId;
    const launched = await tryLaunchForOne(owner.agent, owner, {
      documentId,
      title: '修复测试 Repair test',
      position: { page: 1, mm: { left: 120, top: 220, width: 36, height: 18 } },
    });
    expect(launched.body.code, launched.body.msg).toBe(0);
    const flowId = launched.body.data.flowId;

    const trailIn = async (lang: string) =>
      ok(
        await owner.agent.call<{
          entries: {
            event: string;
            detail: string | null;
            hashBefore: string | null;
            hashAfter: string | null;
          }[];
          chains: { isIntact: boolean }[];
        }>(getAuditTrail, { userType: 0, flowId }, { headers: { 'accept-language': lang } }),
        `trail ${lang}`,
      );
    const trail = await trailIn('en-US');
    const repair = trail.entries.find((e) => e.event === 'repair');
    expect(repair, JSON.stringify(trail.entries)).toBeDefined();
    // it says what was repaired, in the reader's language (not the refusal of a file beyond repair)
    const objects = Number(/\n0 (\d+)\n/.exec(good.toString('latin1'))?.[1]) - 1;
    expect(repair?.detail).toBe(
      `repaired before signing: cross-reference table rebuilt: ${objects} objects at wrong offsets`,
    );
    const zh = (await trailIn('zh-CN')).entries.find((e) => e.event === 'repair');
    expect(zh?.detail).toBe(`签署前已修复：重建了交叉引用表（${objects} 个对象的偏移量有误）`);
    expect(repair?.hashBefore).toBe(damagedSha);
    const launch = trail.entries.find((e) => e.event === 'launch');
    // the launch (the footer) starts from the repaired file
    expect(launch?.hashBefore).toBe(repair?.hashAfter);
    expect(trail.chains.every((c) => c.isIntact)).toBe(true);

    const signed = await signByLink(t, t.agent(), owner);
    expect(signed.body.code, signed.body.msg).toBe(0);
    const final = await getBytes(owner.agent, `${SIGNED_PDF_PATH}/${flowId}/${documentId}`);
    expect(final.status).toBe(200);
    const { report, pki } = await expectAllPassed(t, final.bytes, 1);
    expect(report.signatures.map((s) => s.indication)).toContain('TOTAL_PASSED');
    const out = pdfsigReport(final.bytes, pki.rootPem);
    if (out !== null) {
      expect(out).toContain('Signature is Valid');
      expect(out).not.toMatch(/Signature is Invalid/);
    }
  }, 120_000);
});
