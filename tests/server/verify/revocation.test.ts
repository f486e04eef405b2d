// checkPdf through HTTP sees a platform certificate revoked after signing: the platform's CA answers for its
// own certificates, and the revocation time decides against the signature's time-stamp.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VerifyResult } from '#contract/calls/verify.ts';
import { pkiFor } from '#server/modules/pki/index.ts';
import { signerFromPki } from '#server/pdf/sign/cms.ts';
import { signPdf } from '#server/pdf/sign/sign-pdf.ts';
import type { Pki } from '#server/pki/pki.ts';
import { appForFile } from '../helper.ts';
import { contractSealPdf, makePdf } from '../fixtures/pdf-signing.ts';
import { checkFile } from '../fixtures/verify.ts';

const HOUR = 60 * 60_000;
const t = appForFile();
let pki: Pki;

beforeAll(async () => {
  pki = await pkiFor(t.deps);
}, 60_000);

const ok = (res: { body: { code: number; msg: string; data: VerifyResult } }) => {
  expect(res.body.code, res.body.msg).toBe(0);
  return res.body.data;
};

/** A person account with a platform certificate signs a fresh contract, with or without a time-stamp. */
async function signedByNewAccount(withTimestamp: boolean): Promise<{ bytes: Uint8Array; serial: string }> {
  const holder = { userType: 0 as const, accountId: randomUUID() };
  const issued = await pki.issue({ ...holder, name: '李四', idNumber: '110101199003071234' });
  const material = await pki.signer(holder);
  if (!material) throw new Error('no signer');
  const bytes = await signPdf(await makePdf({ pages: 1 }), {
    signer: signerFromPki(material),
    timestamp: withTimestamp ? (imprint) => pki.timestamp(imprint) : undefined,
    appearance: { pdf: await contractSealPdf() },
    placement: { pageIndex: 0, rect: [100, 100, 220, 220] },
    fieldName: 'lisi',
    signingTime: t.clock.now(),
  });
  return { bytes, serial: issued.serial };
}

describe('revocation by the platform CA, through checkPdf', () => {
  it('good before; revoked after the time-stamp: still valid, the card shows the revocation and its time', async () => {
    const { bytes, serial } = await signedByNewAccount(true);
    const before = ok(await checkFile(t.agent(), bytes));
    expect(before.status).toBe('valid');
    expect(before.signatures[0]).toMatchObject({
      revocation: 'good',
      revokedAt: null,
      trustSource: 'platform',
    });
    expect(before.signatures[0].reasons).not.toContain('REVOCATION_UNKNOWN');

    t.clock.advance(HOUR);
    // The test clock runs on with real time: the revocation is dated within the call, to the second.
    const revokedFrom = Math.floor(t.clock.now().getTime() / 1000) * 1000;
    await pki.revoke(serial);
    const revokedBy = t.clock.now().getTime();

    const after = ok(await checkFile(t.agent(), bytes));
    const [s] = after.signatures;
    expect(after.verdict).toBe('TOTAL_PASSED');
    expect(after.status).toBe('valid');
    expect(s).toMatchObject({
      status: 'valid',
      indication: 'TOTAL_PASSED',
      revocation: 'revoked',
    });
    expect(Date.parse(s.revokedAt ?? '')).toBeGreaterThanOrEqual(revokedFrom);
    expect(Date.parse(s.revokedAt ?? '')).toBeLessThanOrEqual(revokedBy);
    expect(s.reasons).toContain('REVOKED');
    expect(s.details.join(' ')).toMatch(/after the time-stamp proves the signature existed/);
  });

  it('no time-stamp, then revoked: the page says revoked (INDETERMINATE / REVOKED_NO_POE)', async () => {
    const { bytes, serial } = await signedByNewAccount(false);
    expect(ok(await checkFile(t.agent(), bytes)).status).toBe('valid');
    t.clock.advance(HOUR);
    await pki.revoke(serial);
    const r = ok(await checkFile(t.agent(), bytes));
    expect(r.status).toBe('revoked');
    expect(r.verdict).toBe('INDETERMINATE');
    expect(r.subIndication).toBe('REVOKED_NO_POE');
    expect(r.signatures[0]).toMatchObject({ status: 'revoked', trusted: false, revocation: 'revoked' });
    expect(r.signatures[0].revokedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(r.signatures[0].reasons).toContain('REVOKED');
  });
});
