import { describe, expect, it } from 'vitest';
import { getSaleProductTypeList, isHyCenterLogin } from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { CSIGN_PREFIX } from '#contract/envelope.ts';
import type { ServerModule } from '#server/modules/server-module.ts';
import { createTestApp, appForFile } from './helper.ts';

// A route that fails the way a bug would: the answer must not leak its message or stack.
const brokenModule: ServerModule = {
  name: 'broken',
  register(app) {
    app.post('/v1/test/broken', async () => {
      throw new Error('secret internal detail: password=hunter2');
    });
  },
};

const t = appForFile({}, { modules: [brokenModule] });

describe('getSaleProductTypeList', () => {
  it('answers the five sale product types of SPEC §3 with both names', async () => {
    const res = await t.agent().call(getSaleProductTypeList, { userType: 0 });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.msg).toBe('success');
    expect(res.body.data).toEqual([
      { code: '00', name: '管理员', nameEn: 'Administrator' },
      { code: '10', name: '产能预售', nameEn: 'Capacity pre-sale' },
      { code: '20', name: '统购统配', nameEn: 'Unified purchase and distribution' },
      { code: '90', name: '其他', nameEn: 'Other' },
      { code: '91', name: '钢厂合同电子签章使用', nameEn: 'Steel-maker contract e-signature seal use' },
    ]);
  });

  it('isHyCenterLogin answers 0 while no central platform is configured', async () => {
    const res = await t.agent().call(isHyCenterLogin, { userType: 1 });
    expect(res.body).toEqual({ code: 0, msg: 'success', data: 0 });
  });
});

describe('userType on every call', () => {
  it('rejects {} with a clear message', async () => {
    const res = await t.agent().call(getSaleProductTypeList, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: Code.UserTypeInvalid,
      msg: 'userType is required (0 person, 1 company)',
      data: null,
    });
  });

  it('rejects a negative userType', async () => {
    const res = await t.agent().call(getSaleProductTypeList, { userType: -1 });
    expect(res.body).toEqual({
      code: Code.UserTypeInvalid,
      msg: 'userType must be 0 or greater',
      data: null,
    });
  });

  it('rejects a body without content (no JSON at all)', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${CSIGN_PREFIX}/getSaleProductTypeList` });
    expect(res.json()).toMatchObject({ code: Code.UserTypeInvalid, data: null });
  });

  it('rejects a userType that is not 0 or 1', async () => {
    for (const userType of ['0', 2, 0.5, true]) {
      const res = await t.agent().call(getSaleProductTypeList, { userType });
      expect(res.body.code).toBe(Code.UserTypeInvalid);
      expect(res.body.msg).toBe('userType must be 0 (person) or 1 (company)');
    }
  });

  it('answers in Chinese when the request prefers it', async () => {
    const res = await t
      .agent()
      .call(getSaleProductTypeList, {}, { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    expect(res.body.msg).toBe('缺少 userType（0 个人，1 企业）');
  });
});

describe('bad input never breaks the server', () => {
  it('malformed JSON', async () => {
    const res = await t.agent().call(getSaleProductTypeList, undefined, { raw: '{"userType":0,' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: Code.BadRequest, msg: 'request body is not valid JSON', data: null });
  });

  it('a JSON array or string instead of an object', async () => {
    const res = await t.agent().call(getSaleProductTypeList, [1, 2]);
    expect(res.body.code).toBe(Code.BadRequest);
    expect(res.body.msg).toBe('request body must be a JSON object');
  });

  it('wrong types name the field and the rule', async () => {
    const res = await t
      .agent()
      .call('/v1/account/api/csign/userLogin', { userType: 0, phone: 123, password: 5 });
    expect(res.body.code).toBe(Code.BadRequest);
    expect(res.body.msg).toContain('phone: ');
    expect(res.body.msg).toContain('password: ');
  });

  it('field messages follow the language: the contract rule and zod, in Chinese for a zh request', async () => {
    const zh = { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } };
    const rule = await t
      .agent()
      .call('/v1/account/api/csign/sendSmsCode', { userType: 0, phone: '123', purpose: 'login' }, zh);
    expect(rule.body.msg).toBe('phone: 手机号须为 11 位中国大陆手机号码');
    const types = await t
      .agent()
      .call('/v1/account/api/csign/userLogin', { userType: 0, phone: 123, password: 'x' }, zh);
    expect(types.body.code, JSON.stringify(types)).toBe(Code.BadRequest);
    expect(types.body.msg).toMatch(/^phone: 无效输入：期望 字符串，实际接收 数字/);
    expect(types.body.msg).not.toMatch(/[A-Za-z]{4,} [a-z]{4,}/); // no English sentence left
  });

  it('a rule of the contract comes back as field: message', async () => {
    const res = await t
      .agent()
      .call('/v1/account/api/csign/sendSmsCode', { userType: 0, phone: '123', purpose: 'login' });
    expect(res.body).toEqual({
      code: Code.BadRequest,
      msg: 'phone: phone must be an 11-digit mainland mobile number',
      data: null,
    });
  });

  it('a body over 1 MB is refused with 413 and the envelope', async () => {
    const big = JSON.stringify({ userType: 0, pad: 'x'.repeat(1024 * 1024) });
    const res = await t.agent().call(getSaleProductTypeList, undefined, { raw: big });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: Code.PayloadTooLarge, msg: 'request body is too large', data: null });
  });

  it('an unknown call answers 404 with the envelope', async () => {
    const res = await t.agent().call(`${CSIGN_PREFIX}/noSuchCall`, { userType: 0 });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(Code.UnknownCall);
    expect(res.body.msg).toBe(`unknown call: POST ${CSIGN_PREFIX}/noSuchCall`);
    const get = await t.agent().get(`/v1/whatever?ts=1`);
    expect(get.status).toBe(404);
    expect(get.body.code).toBe(Code.UnknownCall);
  });

  it('a wrong content type is a bad request', async () => {
    const res = await t
      .agent()
      .call(getSaleProductTypeList, undefined, { raw: 'userType=0', contentType: 'text/plain' });
    expect(res.body.code).toBe(Code.BadRequest);
    expect(res.body.msg).toBe('content-type must be application/json');
  });

  it('an unexpected failure answers a generic 5000 without the internal message', async () => {
    const res = await t.agent().call('/v1/test/broken', { userType: 0 });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      code: Code.Internal,
      msg: 'internal server error, please try again later',
      data: null,
    });
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
  });

  it('keeps serving after all of that', async () => {
    const res = await t.agent().call(getSaleProductTypeList, { userType: 1 });
    expect(res.body.code).toBe(Code.Ok);
    expect(res.body.data).toHaveLength(5);
  });
});

describe('OpenAPI and headers', () => {
  it('publishes the contract at /v1/docs/json', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    const login = doc.paths['/v1/account/api/csign/userLogin'].post;
    expect(login.operationId).toBe('userLogin');
    expect(Object.keys(login.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['userType', 'phone', 'password']),
    );
    expect(doc.paths['/v1/jinshang/login/api/csign/getEsignLoginInfo']).toBeDefined();
    expect(doc.paths['/v1/dev/outbox']).toBeUndefined();
  });

  it('serves the docs page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/docs' });
    expect([200, 302]).toContain(res.statusCode);
  });

  it('sends a CSP that allows blob: workers and data: images', async () => {
    const res = await t.agent().call(getSaleProductTypeList, { userType: 0 });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("default-src 'self'");
  });
});

describe('flood guard', () => {
  it('answers 429 with code RateLimited beyond RATE_LIMIT_PER_MINUTE', async () => {
    const limited = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.agent().call(getSaleProductTypeList, { userType: 0 });
        codes.push(res.status === 429 ? res.body.code : res.status);
      }
      expect(codes).toEqual([200, 200, 200, Code.RateLimited, Code.RateLimited]);
    } finally {
      await limited.close();
    }
  });
});
