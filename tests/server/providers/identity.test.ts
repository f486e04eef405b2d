// Real identity providers against local stand-ins that check each request's signature by the provider's
// published algorithm: Tencent Cloud API 3.0 (TC3-HMAC-SHA256) for faceid, Aliyun's V3 signature
// (ACS3-HMAC-SHA256) for cloudauth. Through HTTP: the three-factor check (passed, refused, provider
// down), the H5 face check whose result the server asks the provider for (a browser arriving at a
// result route, or at the return address with a wrong token, decides nothing), and the evidence kept.
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  authIdNamePhone,
  getFaceAuthResult,
  getPersonalDetails,
  startFaceAuth,
} from '#contract/calls/person.ts';
import { evidenceOf } from '#server/providers/evidence.ts';
import { type Agent, type TestApp, createTestApp, registerAndLogin, uniquePhone } from '../helper.ts';
import { newIdNumber, realNameCode } from '../fixtures/person.ts';
import { type SeenRequest, type StandIn, startStandIn } from '../fixtures/provider-stand-in.ts';

const KEY_ID = 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE';
const SECRET = 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE';
const sha256hex = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();

/** Tencent Cloud API 3.0 signature check, written from the published description. */
function tc3Valid(req: SeenRequest): boolean {
  const auth = String(req.headers.authorization ?? '');
  const m =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m || m[1] !== KEY_ID) return false;
  const [, , date, service, signedHeaders, signature] = m;
  const timestamp = String(req.headers['x-tc-timestamp']);
  if (new Date(Number(timestamp) * 1000).toISOString().slice(0, 10) !== date) return false;
  const headerValue = (name: string) =>
    name === 'host' ? String(req.headers.host).replace(/:\d+$/, '') : String(req.headers[name]).toLowerCase();
  const names = signedHeaders.split(';');
  const canonicalHeaders = names.map((n) => `${n}:${headerValue(n)}\n`).join('');
  const canonical = `POST\n/\n\n${canonicalHeaders}\n${signedHeaders}\n${sha256hex(req.body)}`;
  const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/${service}/tc3_request\n${sha256hex(canonical)}`;
  const kSigning = hmac(hmac(hmac(`TC3${SECRET}`, date), service), 'tc3_request');
  return createHmac('sha256', kSigning).update(toSign).digest('hex') === signature;
}

/** Aliyun V3 (ACS3-HMAC-SHA256) signature check, written from the published description. */
function acs3Valid(req: SeenRequest): boolean {
  const auth = String(req.headers.authorization ?? '');
  const m = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m || m[1] !== KEY_ID) return false;
  const [, , signedHeaders, signature] = m;
  if (sha256hex(req.body) !== req.headers['x-acs-content-sha256']) return false;
  const url = new URL(req.url, 'http://x');
  const query = [...url.searchParams]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .split(';')
    .map((n) => `${n}:${String(req.headers[n]).trim()}\n`)
    .join('');
  const canonical = `POST\n${url.pathname}\n${query}\n${canonicalHeaders}\n${signedHeaders}\n${req.headers['x-acs-content-sha256']}`;
  const toSign = `ACS3-HMAC-SHA256\n${sha256hex(canonical)}`;
  return createHmac('sha256', SECRET).update(toSign).digest('hex') === signature;
}

type Scenario = { threeFactor: 'ok' | 'mismatch' | 'down'; face: 'passed' | 'failed' | 'pending' };

let tencent: StandIn;
let aliyun: StandIn;
const scenario: Scenario = { threeFactor: 'ok', face: 'passed' };

function tencentAnswer(req: SeenRequest) {
  const json = (Response: unknown) => ({ body: JSON.stringify({ Response }) });
  if (!tc3Valid(req))
    return json({
      Error: { Code: 'AuthFailure.SignatureFailure', Message: 'bad signature' },
      RequestId: 'e',
    });
  const action = String(req.headers['x-tc-action']);
  const body = JSON.parse(req.body);
  if (action === 'PhoneVerification') {
    if (scenario.threeFactor === 'down') return { status: 503, body: 'busy' };
    return json({
      Result: scenario.threeFactor === 'ok' ? '0' : '-4',
      Description: '',
      RequestId: `tc-3f-${body.Phone}`,
    });
  }
  if (action === 'DetectAuth')
    return json({
      Url: `https://faceid.qq.com/api/auth/h5?token=BIZ-${body.Extra}`,
      BizToken: `BIZ-${body.Extra}`,
      RequestId: 'tc-detect-1',
      Echo: body,
    });
  if (action === 'GetDetectInfoEnhanced') {
    const ErrCode = scenario.face === 'passed' ? 0 : scenario.face === 'failed' ? 1001 : null;
    return json({
      Text: { ErrCode, ErrMsg: ErrCode ? '活体检测未通过' : '' },
      RequestId: `tc-face-${body.BizToken}`,
    });
  }
  return json({ Error: { Code: 'InvalidAction', Message: action }, RequestId: 'e' });
}

/** An RPC call's parameters: in the query string and the form body. */
const aliyunParams = (req: SeenRequest): Record<string, string> => ({
  ...Object.fromEntries(new URL(req.url, 'http://x').searchParams),
  ...Object.fromEntries(new URLSearchParams(req.body)),
});
const paramsOf = (provider: string, req: SeenRequest) =>
  provider === 'tencent' ? JSON.parse(req.body) : aliyunParams(req);

function aliyunAnswer(req: SeenRequest) {
  const json = (o: unknown) => ({ body: JSON.stringify(o) });
  if (!acs3Valid(req))
    return {
      status: 400,
      body: JSON.stringify({ Code: 'IncompleteSignature', Message: 'bad signature', RequestId: 'e' }),
    };
  const action = String(req.headers['x-acs-action']);
  const p = aliyunParams(req);
  if (action === 'Mobile3MetaSimpleVerify') {
    if (scenario.threeFactor === 'down') return { status: 503, body: '{"Code":"ServiceUnavailable"}' };
    return json({
      Code: '200',
      Message: 'success',
      RequestId: `ali-3f-${p.Mobile}`,
      ResultObject: { BizCode: scenario.threeFactor === 'ok' ? '1' : '2', IspName: 'CMCC' },
    });
  }
  if (action === 'InitFaceVerify')
    return json({
      Code: '200',
      Message: 'success',
      RequestId: 'ali-init-1',
      ResultObject: {
        CertifyId: `CID-${p.OuterOrderNo}`,
        CertifyUrl: `https://h5.cloudauth.example/${p.OuterOrderNo}`,
      },
      Echo: p,
    });
  if (action === 'DescribeFaceVerify') {
    const Passed = scenario.face === 'passed' ? 'T' : scenario.face === 'failed' ? 'F' : undefined;
    return json({
      Code: '200',
      Message: 'success',
      RequestId: `ali-face-${p.CertifyId}`,
      ResultObject: { Passed, SubCode: Passed === 'F' ? '205' : '200' },
    });
  }
  return json({ Code: 'InvalidAction', Message: action });
}

beforeAll(async () => {
  tencent = await startStandIn();
  tencent.handle(tencentAnswer);
  aliyun = await startStandIn();
  aliyun.handle(aliyunAnswer);
});
afterAll(async () => {
  await tencent?.close();
  await aliyun?.close();
});

describe.each([
  ['tencent', () => tencent, '2001'],
  ['aliyun', () => aliyun, '1000001'],
] as const)('IDENTITY_PROVIDER=%s', (provider, standIn, scene) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      IDENTITY_PROVIDER: provider,
      IDENTITY_ENDPOINT: standIn().url,
      IDENTITY_ACCESS_KEY_ID: KEY_ID,
      IDENTITY_ACCESS_KEY_SECRET: SECRET,
      IDENTITY_FACE_SCENE: scene,
      PUBLIC_URL: 'https://esign.example.com',
    });
  }, 60_000);
  afterAll(() => t?.close());

  async function realName(agent: Agent) {
    const phone = uniquePhone();
    const idNumber = newIdNumber();
    const smsCode = await realNameCode(t, agent, phone);
    const res = await agent.call(authIdNamePhone, { userType: 0, name: '李四', idNumber, phone, smsCode });
    return { res, phone, idNumber };
  }

  test('three-factor check: a signed request; refused and unreachable answers refuse', async () => {
    const { agent, info } = await registerAndLogin(t);
    scenario.threeFactor = 'mismatch';
    const refused = await realName(agent);
    expect(refused.res.body.code).toBe(1100);
    expect(refused.res.body.msg).toMatch(/do not belong together/);
    scenario.threeFactor = 'down';
    const down = await realName(agent);
    expect(down.res.body.code).toBe(1100);
    expect(down.res.body.msg).toMatch(/could not be reached/);
    scenario.threeFactor = 'ok';
    const passed = await realName(agent);
    expect(passed.res.body.code).toBe(0);
    const sent = standIn().requests.at(-1)!;
    expect(provider === 'tencent' ? tc3Valid(sent) : acs3Valid(sent)).toBe(true);
    expect(sent.body).toContain(passed.phone);
    const evidence = await evidenceOf(t.db, 'user', info.userId);
    expect(evidence.map((e) => [e.kind, e.outcome])).toEqual([
      ['identity', 'failed'],
      ['identity', 'passed'],
    ]);
    expect(evidence[1].requestId).toBe(`${provider === 'tencent' ? 'tc' : 'ali'}-3f-${passed.phone}`);
    // The ID number itself is never stored in clear.
    const stored = (await t.db.execute(
      `SELECT * FROM person_identities WHERE user_id = '${info.userId}'`,
    )) as unknown as { rows: Record<string, unknown>[] };
    expect(stored.rows).toHaveLength(1);
    expect(JSON.stringify(stored.rows)).not.toContain(passed.idNumber);
  });

  test('face check: the result comes from the provider, never from the browser', async () => {
    const { agent, info } = await registerAndLogin(t);
    scenario.threeFactor = 'ok';
    const { idNumber } = await realName(agent);
    const started = await agent.call<{ url: string; personCode: string }>(startFaceAuth, {
      userType: 0,
      openFlag: 'openAccount',
    });
    expect(started.body.code).toBe(0);
    const { url, personCode } = started.body.data;
    expect(url).toMatch(
      provider === 'tencent' ? /^https:\/\/faceid\.qq\.com\// : /^https:\/\/h5\.cloudauth\.example\//,
    );
    const init = standIn().requests.at(-1)!;
    expect(provider === 'tencent' ? tc3Valid(init) : acs3Valid(init)).toBe(true);
    const initBody = paramsOf(provider, init);
    const returnUrl = new URL(provider === 'tencent' ? initBody.RedirectUrl : initBody.ReturnUrl);
    expect(`${returnUrl.origin}${returnUrl.pathname}`).toBe(
      `https://esign.example.com/v1/person/face/return/${personCode}`,
    );
    expect(provider === 'tencent' ? initBody.IdCard : initBody.CertNo).toBe(idNumber);
    const token = returnUrl.searchParams.get('t')!;

    // The provider has not decided yet: a browser at the result route, or back with a wrong token, gets nothing.
    scenario.face = 'pending';
    const early = await t.agent().call<{ result: string }>(getFaceAuthResult, { userType: 0, token });
    expect(early.body.data.result).toBe('pending');
    const wrong = await t.app.inject({ method: 'GET', url: `/v1/person/face/return/${personCode}?t=nope` });
    expect(wrong.statusCode).toBe(404);

    // The provider failed the face: the return address asks it and sends the browser to resultFalse.
    scenario.face = 'failed';
    const back = await t.app.inject({
      method: 'GET',
      url: `/v1/person/face/return/${personCode}?t=${token}&token=BIZ-forged`,
    });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toMatch(/^\/#\/h5\/v1\/resultFalse\/openAccount\//);
    const query = standIn().requests.at(-1)!;
    expect(provider === 'tencent' ? tc3Valid(query) : acs3Valid(query)).toBe(true);
    // The server asked with the reference it kept, not the one the browser brought.
    expect(JSON.stringify(paramsOf(provider, query))).toContain(
      provider === 'tencent' ? `BIZ-${personCode}` : `CID-${personCode}`,
    );
    scenario.face = 'passed';
    const after = await t.agent().call<{ result: string }>(getFaceAuthResult, { userType: 0, token });
    expect(after.body.data.result).toBe('failed');

    // A new attempt that passes.
    const again = await agent.call<{ url: string; personCode: string }>(startFaceAuth, {
      userType: 0,
      openFlag: 'openAccount',
    });
    const againInit = standIn().requests.at(-1)!;
    const againBody = paramsOf(provider, againInit);
    const token2 = new URL(
      provider === 'tencent' ? againBody.RedirectUrl : againBody.ReturnUrl,
    ).searchParams.get('t')!;
    const passed = await t
      .agent()
      .call<{ result: string }>(getFaceAuthResult, { userType: 0, token: token2 });
    expect(passed.body.data.result).toBe('passed');
    const ok = await t.app.inject({
      method: 'GET',
      url: `/v1/person/face/return/${again.body.data.personCode}?t=${token2}`,
    });
    expect(ok.headers.location).toMatch(/^\/#\/h5\/v1\/result\/openAccount\//);
    const faces = (await evidenceOf(t.db, 'user', info.userId)).filter((e) => e.kind === 'face');
    expect(faces.map((f) => f.outcome)).toEqual(['failed', 'passed']);
    expect(faces[1].requestId).toMatch(provider === 'tencent' ? /^tc-face-BIZ-/ : /^ali-face-CID-/);

    // The account sees its checks with the provider's request ids.
    const details = await agent.call<{
      verificationRecords: { kind: string; outcome: string; requestId: string }[];
    }>(getPersonalDetails, { userType: 0 });
    expect(details.body.data.verificationRecords.map((r) => [r.kind, r.outcome])).toEqual([
      ['identity', 'passed'],
      ['face', 'failed'],
      ['face', 'passed'],
    ]);
    expect(details.body.data.verificationRecords[2].requestId).toBe(faces[1].requestId);

    // A posted "callback" is never believed with a real provider.
    const posted = await t.app.inject({
      method: 'POST',
      url: '/v1/person/face/callback',
      payload: { personCode, openFlag: 'openAccount', result: 'passed', sig: '0'.repeat(64) },
    });
    expect(posted.statusCode).toBe(403);
  });
});
