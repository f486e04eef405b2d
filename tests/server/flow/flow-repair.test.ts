// A contract whose cross-reference data is damaged (every offset wrong, as after a careless edit) goes
// through HTTP: it is repaired once at launch, before the first signature; the audit trail records
// "repaired before signing" with the hashes of the damaged and the repaired file; the signed result passes
// the platform verifier and pdfsig.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SIGNED_PDF_PATH } from '#contract/calls/document.ts';
import { getAuditTrail, launchFlow } from '#contract/calls/flow.ts';
import { pkiFor } from '#server/modules/pki/service.ts';
import { verifyPdf } from '#server/pdf/verify/verify-pdf.ts';
import { type TestApp, createTestApp } from '../helper.ts';
import { hasTool, nssDb, run } from '../fixtures/pdf-signing.ts';
import {
  contractPdf,
  getBytes,
  ok,
  openByLink,
  personWithCert,
  type Signer,
  sign,
  uploadPdf,
} from '../fixtures/flow.ts';

let t: TestApp;
let owner: Signer;

beforeAll(async () => {
  t = await createTestApp();
  owner = await personWithCert(t, '赵六');
}, 120_000);
afterAll(() => t?.close());

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
    const launched = await owner.agent.call<{ flowId: string }>(launchFlow, {
      userType: 0,
      title: '修复测试 Repair test',
      documentIds: [documentId],
      steps: [
        {
          parties: [
            {
              kind: 'person',
              name: owner.name,
              phone: owner.phone,
              positions: [{ documentId, page: 1, mm: { left: 120, top: 220, width: 36, height: 18 } }],
            },
          ],
        },
      ],
    });
    expect(launched.body.code, launched.body.msg).toBe(0);
    const flowId = launched.body.data.flowId;

    const trail = ok(
      await owner.agent.call<{
        entries: {
          event: string;
          detail: string | null;
          hashBefore: string | null;
          hashAfter: string | null;
        }[];
        chains: { isIntact: boolean }[];
      }>(getAuditTrail, { userType: 0, flowId }),
      'trail',
    );
    const repair = trail.entries.find((e) => e.event === 'repair');
    expect(repair, JSON.stringify(trail.entries)).toBeDefined();
    expect(repair?.detail).toMatch(/^(签署前已修复|repaired before signing)/);
    expect(repair?.hashBefore).toBe(damagedSha);
    const launch = trail.entries.find((e) => e.event === 'launch');
    // the launch (the footer) starts from the repaired file
    expect(launch?.hashBefore).toBe(repair?.hashAfter);
    expect(trail.chains.every((c) => c.isIntact)).toBe(true);

    const agent = t.agent();
    const room = await openByLink(t, agent, owner.phone);
    const signed = await sign(t, agent, room, owner.phone, { personSealId: owner.sealId! });
    expect(signed.body.code, signed.body.msg).toBe(0);
    const final = await getBytes(owner.agent, `${SIGNED_PDF_PATH}/${flowId}/${documentId}`);
    expect(final.status).toBe(200);
    const pki = await pkiFor(t.deps);
    const report = await verifyPdf(final.bytes, { trustAnchors: [pki.ca.root.der], now: t.clock.now() });
    expect(report.signatures.map((s) => s.indication)).toContain('TOTAL_PASSED');
    expect(report.signatures.every((s) => s.indication === 'TOTAL_PASSED')).toBe(true);
    if (['pdfsig', 'certutil'].every(hasTool)) {
      const dir = mkdtempSync(join(tmpdir(), 'flow-repair-'));
      const file = join(dir, 'signed.pdf');
      writeFileSync(file, final.bytes);
      const out = run('pdfsig', ['-nssdir', nssDb(dir, pki.rootPem), '-no-ocsp', file]).out;
      expect(out).toContain('Signature is Valid');
      expect(out).not.toMatch(/Signature is Invalid/);
    }
  }, 120_000);
});
