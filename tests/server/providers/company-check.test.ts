// The business-register check through an Aliyun API market product, against a local stand-in of the API
// gateway that checks the AppKey/AppSecret signature (X-Ca-Signature, HmacSHA256) by the published
// algorithm and answers as a market product does. Through HTTP: a matching company is accepted, a
// mismatch refused, a gateway refusal reported as unavailable; the gateway's request id is kept.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applyCompanyEsign, type CompanyApply } from '#contract/calls/company.ts';
import { evidenceOf } from '#server/providers/evidence.ts';
import { newCreditCode, person } from '../fixtures/company.ts';
import { type TestApp, createTestApp } from '../helper.ts';
import { passRealName } from '../fixtures/person.ts';
import {
  type SeenRequest,
  type StandIn,
  type StandInAnswer,
  startStandIn,
} from '../fixtures/provider-stand-in.ts';

const APP_KEY = '203751234';
const APP_SECRET = 'e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8';
/** The register as the stand-in knows it. */
const REGISTER = new Map<string, { name: string; legal: string }>();

/** API Gateway signature check, written from Aliyun's published description. */
function gatewaySignatureValid(req: SeenRequest): boolean {
  const h = req.headers;
  if (h['x-ca-key'] !== APP_KEY || h['x-ca-signature-method'] !== 'HmacSHA256') return false;
  if (Math.abs(Date.now() - Number(h['x-ca-timestamp'])) > 15 * 60_000) return false;
  const names = String(h['x-ca-signature-headers'] ?? '')
    .split(',')
    .filter(Boolean)
    .sort();
  if (!names.includes('x-ca-timestamp') || !names.includes('x-ca-nonce')) return false;
  const url = new URL(req.url, 'http://x');
  const params = [...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = params.map(([k, v]) => (v === '' ? k : `${k}=${v}`)).join('&');
  const toSign =
    `${req.method}\n${h.accept ?? ''}\n${h['content-md5'] ?? ''}\n${h['content-type'] ?? ''}\n${h.date ?? ''}\n` +
    names.map((n) => `${n}:${h[n]}\n`).join('') +
    (query ? `${url.pathname}?${query}` : url.pathname);
  return createHmac('sha256', APP_SECRET).update(toSign, 'utf8').digest('base64') === h['x-ca-signature'];
}

let gw: StandIn;
let t: TestApp;
let n = 0;

beforeAll(async () => {
  gw = await startStandIn();
  gw.handle((req): StandInAnswer => {
    n += 1;
    const requestId = `CA-REQ-${n}`;
    if (!gatewaySignatureValid(req))
      return {
        status: 400,
        headers: { 'x-ca-request-id': requestId, 'x-ca-error-message': 'Invalid Signature' },
        body: '',
      };
    const q = new URL(req.url, 'http://x').searchParams;
    const known = REGISTER.get(q.get('creditNo') ?? '');
    const match = known && known.name === q.get('companyName') && known.legal === q.get('legalPerson');
    return {
      headers: { 'content-type': 'application/json', 'x-ca-request-id': requestId },
      body: JSON.stringify({
        code: 200,
        msg: '成功',
        data: { result: match ? 1 : 2, desc: match ? '一致' : '不一致' },
      }),
    };
  });
  t = await createTestApp({
    COMPANY_CHECK_PROVIDER: 'aliyun-market',
    COMPANY_CHECK_ENDPOINT: gw.url,
    COMPANY_CHECK_PATH: '/enterprise/three-factors',
    COMPANY_CHECK_APP_KEY: APP_KEY,
    COMPANY_CHECK_APP_SECRET: APP_SECRET,
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await gw?.close();
});

describe('company register check (Aliyun API market)', () => {
  test('a match is accepted, a mismatch refused, a gateway refusal unavailable; request ids kept', async () => {
    const applicant = await person(t);
    await passRealName(t, applicant.agent);
    const creditCode = newCreditCode();
    const name = `杭州核验测试${creditCode.slice(-4)}有限公司`;
    REGISTER.set(creditCode, { name, legal: '王五' });
    const apply = (legalRepName: string) =>
      applicant.agent.call<CompanyApply>(applyCompanyEsign, {
        userType: 0,
        companyName: name,
        creditCode,
        legalRepName,
        applicantRole: 'legal_rep',
      });

    const wrong = await apply('赵六');
    expect(wrong.body.code).toBe(1100);
    expect(wrong.body.msg).toMatch(/do not match the business register/);
    const refusedReq = gw.requests.at(-1)!;
    expect(refusedReq.url.startsWith('/enterprise/three-factors?')).toBe(true);
    expect(gatewaySignatureValid(refusedReq)).toBe(true);

    const right = await apply('王五');
    expect(right.body.code).toBe(0);
    expect(right.body.data.provider).toBe('aliyun-market+development');

    const userEvidence = (await evidenceOf(t.db, 'user', applicant.userId)).filter(
      (e) => e.kind === 'company',
    );
    expect(userEvidence.map((e) => [e.kind, e.outcome, e.requestId])).toEqual([
      ['company', 'mismatch', 'CA-REQ-1'],
    ]);
    const companyEvidence = await evidenceOf(t.db, 'company', right.body.data.companyId);
    expect(companyEvidence.map((e) => [e.kind, e.outcome, e.requestId])).toEqual([
      ['company', 'match', 'CA-REQ-2'],
    ]);

    // A wrong AppSecret: the gateway refuses the signature, the applicant is told to try later.
    const other = await createTestApp({
      COMPANY_CHECK_PROVIDER: 'aliyun-market',
      COMPANY_CHECK_ENDPOINT: gw.url,
      COMPANY_CHECK_PATH: '/enterprise/three-factors',
      COMPANY_CHECK_APP_KEY: APP_KEY,
      COMPANY_CHECK_APP_SECRET: 'not-the-secret',
    });
    try {
      const p = await person(other);
      await passRealName(other, p.agent);
      const code2 = newCreditCode();
      const res = await p.agent.call(applyCompanyEsign, {
        userType: 0,
        companyName: '上海签名错误测试有限公司',
        creditCode: code2,
        legalRepName: '王五',
        applicantRole: 'legal_rep',
      });
      expect(res.status).toBe(502);
      expect(res.body.msg).toMatch(/could not be reached/);
      expect(JSON.stringify(res.body)).not.toContain('not-the-secret');
    } finally {
      await other.close();
    }
  });

  test('a missing setting names its variable', async () => {
    await expect(
      createTestApp({ COMPANY_CHECK_PROVIDER: 'aliyun-market', COMPANY_CHECK_ENDPOINT: gw.url }),
    ).rejects.toThrow(
      /COMPANY_CHECK_PATH: required[\s\S]*COMPANY_CHECK_APP_KEY[\s\S]*COMPANY_CHECK_APP_SECRET/,
    );
  });
});
