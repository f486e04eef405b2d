// A platform document opened by the verification code of its footer: launched and signed through the real
// flow calls, then verified by code (trusted through the platform root), its PDF shown to the code holder.
import { beforeAll, describe, expect, it } from 'vitest';
import { type PlatformDocument, type VerifyResult, verifyByCode } from '#contract/calls/verify.ts';
import { Code } from '#contract/codes.ts';
import { contractPdf, personWithCert, signByLink, tryLaunchForOne } from '../fixtures/flow.ts';
import { appForFile } from '../helper.ts';

const t = appForFile();
let code: string;

beforeAll(async () => {
  const initiator = await personWithCert(t, '王发起');
  const signer = await personWithCert(t, '李四');
  const launched = await tryLaunchForOne(initiator.agent, signer, {
    pdf: await contractPdf(2),
    title: '租赁合同 Lease',
    position: { page: 2, mm: { left: 120, top: 220, width: 36, height: 18 } },
  });
  expect(launched.body.code, launched.body.msg).toBe(0);
  code = launched.body.data.verificationCodes[0];
  const signed = await signByLink(t, t.agent(), signer);
  expect(signed.body.code, signed.body.msg).toBe(0);
}, 180_000);

type ByCode = { document: PlatformDocument; result: VerifyResult } | null;

describe('verifyByCode', () => {
  it('verifies the current signed version: passed, trusted through the platform root', async () => {
    // Typed in lower case as someone might copy it from paper.
    const res = await t.agent().call<ByCode>(verifyByCode, { userType: 0, code: code.toLowerCase() });
    expect(res.body.code, res.body.msg).toBe(0);
    const { document, result } = res.body.data!;
    expect(document).toMatchObject({
      verificationCode: code,
      flowTitle: '租赁合同 Lease',
      flowStatus: 'completed',
    });
    expect(result.source).toBe('platform');
    expect(result.verdict, JSON.stringify(result.signatures.map((s) => s.reasons))).toBe('TOTAL_PASSED');
    const person = result.signatures.find((s) => s.kind === 'approval')!;
    expect(person).toMatchObject({ status: 'valid', trusted: true, trustSource: 'platform' });
    expect(person.signer?.name).toBe('李四');
    expect(person.widgets[0]?.page).toBe(2);
  }, 30_000);

  it('an unknown code answers null', async () => {
    const res = await t.agent().call(verifyByCode, { userType: 0, code: 'AAAA-BBBB-CCCC-DDDD' });
    expect(res.body).toMatchObject({ code: 0, data: null });
  });

  it('the code holder can see the platform copy of the PDF; an unknown code cannot', async () => {
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/v1/account/api/csign/downloadVerifiedPdf/${code}`,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const none = await t.app.inject({
      method: 'GET',
      url: '/v1/account/api/csign/downloadVerifiedPdf/AAAA-BBBB',
    });
    expect(none.json().code).toBe(Code.NotFound);
  });
});
