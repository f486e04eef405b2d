// The front door of the integrator API: keys (missing, unknown, revoked, wrong scope), the one error shape
// with an HTTP status, the per-key rate limit, Idempotency-Key (replay and conflict), last use recorded.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { type ApiKey, listApiKeys, revokeApiKey } from '#contract/calls/apikey.ts';
import { person } from '../fixtures/company.ts';
import { type Agent, appForFile } from '../helper.ts';
import { contractPdf } from '../fixtures/flow.ts';
import { makeKey, open } from '../fixtures/open.ts';

const t = appForFile({ OPEN_API_RATE_PER_MINUTE: '30', UPLOAD_LIMIT_MB: '1' });
let alice: Agent;
let pdfBase64: string;

beforeAll(async () => {
  alice = (await person(t)).agent;
  pdfBase64 = Buffer.from(await contractPdf(1)).toString('base64');
}, 60_000);

describe('keys', () => {
  test('POST /flows without a key: 401 in the envelope, code 2101', async () => {
    const res = await open(t, 'POST', '/flows', { body: {} });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 2101, msg: expect.stringContaining('API key'), data: null });
  });

  test('an unknown key, and a malformed Authorization header: 401', async () => {
    expect((await open(t, 'GET', '/flows', { key: 'esk_live_nothing-like-a-real-key' })).status).toBe(401);
    const basic = await open(t, 'GET', '/flows', { headers: { authorization: 'Basic abc' } });
    expect(basic.status).toBe(401);
    expect(basic.body.code).toBe(2101);
  });

  test('a key without the scope: 403 naming the scope; with it, 200', async () => {
    const key = await makeKey(alice, ['templates:read']);
    const refused = await open(t, 'POST', '/flows', { key: key.secret, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(2102);
    expect(refused.body.msg).toContain('flows:write');
    const zh = await open(t, 'GET', '/flows', { key: key.secret, headers: { 'accept-language': 'zh-CN' } });
    expect(zh.status).toBe(403);
    expect(zh.body.msg).toContain('缺少权限');
    const ok = await open(t, 'GET', '/templates', { key: key.secret });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ code: 0, msg: 'success', data: { list: [], total: 0 } });
  });

  test('a revoked key stops at once: 401', async () => {
    const key = await makeKey(alice, ['flows:read']);
    expect((await open(t, 'GET', '/flows', { key: key.secret })).status).toBe(200);
    expect((await alice.call(revokeApiKey, { userType: 0, keyId: key.keyId })).body.code).toBe(0);
    const res = await open(t, 'GET', '/flows', { key: key.secret });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(2101);
  });

  test('the last use is recorded and shown in the list', async () => {
    const key = await makeKey(alice, ['flows:read']);
    await open(t, 'GET', '/flows', { key: key.secret });
    const listed = await alice.call<{ list: ApiKey[] }>(listApiKeys, { userType: 0 });
    const shown = listed.body.data.list.find((k) => k.keyId === key.keyId);
    expect(shown?.lastUsedAt).not.toBeNull();
  });

  test('bad input: 400 with the field named; an unknown route: 404 in the same shape', async () => {
    const key = await makeKey(alice, ['flows:read']);
    const bad = await open(t, 'GET', '/flows/not-a-uuid', { key: key.secret });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(1001);
    expect(bad.body.msg).toContain('flowId');
    const none = await open(t, 'GET', '/nothing-here', { key: key.secret });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe(1004);
  });
});

describe('uploads that cannot be launched', () => {
  test('not a PDF, not base64, empty, wrong types, not JSON: clear refusals, nothing stored', async () => {
    const key = (await makeKey(alice, ['flows:write'])).secret;
    const count = async () => {
      const res = await t.db.execute(sql`select count(*)::int as n from documents`);
      return (res as unknown as { rows: { n: number }[] }).rows[0].n;
    };
    const before = await count();
    const upload = (body: unknown) => open(t, 'POST', '/documents', { key, body });
    const text = await upload({ filename: 'a.pdf', contentBase64: Buffer.from('hello').toString('base64') });
    expect([text.status, text.body.code]).toEqual([422, 1320]);
    expect((await upload({ filename: 'a.pdf', contentBase64: '%%%not base64' })).body.code).toBe(1320);
    const empty = await upload({ filename: 'a.pdf', contentBase64: '==' });
    expect([empty.body.code, empty.body.msg]).toEqual([1320, 'the PDF has no pages']);
    const types = await upload({ filename: 5, contentBase64: [] });
    expect([types.status, types.body.code]).toEqual([400, 1001]);
    expect(types.body.msg).toContain('filename');
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/open/v1/documents',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: '{"filename": "a.pdf", ',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ code: 1001, data: null });
    expect(await count()).toEqual(before);
  });

  test('over the upload limit: 413 whether the body or the decoded PDF is too large', async () => {
    const key = (await makeKey(alice, ['flows:write'])).secret;
    // 1.1 MB of PDF-looking bytes: the body fits the base64 allowance, the file does not fit 1 MB
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(1_080_000, 0x20)]);
    const decoded = await open(t, 'POST', '/documents', {
      key,
      body: { filename: 'big.pdf', contentBase64: big.toString('base64') },
    });
    expect([decoded.status, decoded.body.code]).toEqual([413, 1003]);
    expect(decoded.body.msg).toContain('1');
    const body = await open(t, 'POST', '/documents', {
      key,
      body: { filename: 'big.pdf', contentBase64: 'A'.repeat(3_000_000) },
    });
    expect([body.status, body.body.code]).toEqual([413, 1003]);
  });
});

describe('rate limit per key', () => {
  test('past the limit a key gets 429 with Retry-After; another key is not affected', async () => {
    const busy = await makeKey(alice, ['flows:read']);
    const calm = await makeKey(alice, ['flows:read']);
    // The limit counts in fixed one-minute windows, and the test clock runs on with real time: start at the
    // beginning of a window, so the requests below never straddle two (CI once did, and no 429 came).
    t.clock.advance(60_000 - (t.clock.now().getTime() % 60_000) + 1);
    let last = 200;
    for (let i = 0; i < 31 && last === 200; i++)
      last = (await open(t, 'GET', '/flows', { key: busy.secret })).status;
    const limited = await open(t, 'GET', '/flows', { key: busy.secret });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe(1005);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await open(t, 'GET', '/flows', { key: calm.secret })).status).toBe(200);
    t.clock.advance(60_000);
    expect((await open(t, 'GET', '/flows', { key: busy.secret })).status).toBe(200);
  });
});

describe('Idempotency-Key', () => {
  test('same key and body: the first answer again, nothing made twice; another body: 422', async () => {
    const key = await makeKey(alice, ['flows:write']);
    const body = { filename: 'contract.pdf', contentBase64: pdfBase64 };
    const headers = { 'idempotency-key': 'upload-1' };
    const first = await open<{ documentId: string }>(t, 'POST', '/documents', {
      key: key.secret,
      body,
      headers,
    });
    expect(first.status).toBe(201);
    const again = await open<{ documentId: string }>(t, 'POST', '/documents', {
      key: key.secret,
      body,
      headers,
    });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await open(t, 'POST', '/documents', {
      key: key.secret,
      body: { ...body, filename: 'other.pdf' },
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe(2103);
    // Without the header, the same body makes a new document.
    const fresh = await open<{ documentId: string }>(t, 'POST', '/documents', { key: key.secret, body });
    expect(fresh.body.data.documentId).not.toBe(first.body.data.documentId);
  });

  test('while the first request runs: 409; one abandoned for over 5 minutes no longer blocks the key', async () => {
    const key = await makeKey(alice, ['flows:write']);
    const body = { filename: 'contract.pdf', contentBase64: pdfBase64 };
    const headers = { 'idempotency-key': 'stuck' };
    // The state a first request leaves while it runs (or when its server stops before answering).
    const hash = createHash('sha256')
      .update(`POST /open/v1/documents\n${JSON.stringify(body)}`)
      .digest('hex');
    await t.db.execute(
      sql`INSERT INTO api_idempotency (api_key_id, idem_key, request_hash, created_at)
          VALUES (${key.keyId}, 'stuck', ${hash}, ${t.clock.now().toISOString()})`,
    );
    const running = await open(t, 'POST', '/documents', { key: key.secret, body, headers });
    expect(running.status).toBe(409);
    expect(running.body.code).toBe(2104);
    t.clock.advance(6 * 60_000);
    const later = await open(t, 'POST', '/documents', { key: key.secret, body, headers });
    expect(later.status).toBe(201);
  });

  test('a refusal is kept as the first answer too; the record lasts 24 hours', async () => {
    const key = await makeKey(alice, ['flows:write']);
    const headers = { 'idempotency-key': 'bad-pdf' };
    const body = { filename: 'x.pdf', contentBase64: Buffer.from('not a pdf').toString('base64') };
    const first = await open(t, 'POST', '/documents', { key: key.secret, body, headers });
    expect(first.status).toBe(422);
    expect(first.body.code).toBe(1320);
    const again = await open(t, 'POST', '/documents', { key: key.secret, body, headers });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    // Another key's Idempotency-Key space is its own.
    const otherKey = await makeKey(alice, ['flows:write']);
    const mine = await open(t, 'POST', '/documents', {
      key: otherKey.secret,
      body: { filename: 'contract.pdf', contentBase64: pdfBase64 },
      headers,
    });
    expect(mine.status).toBe(201);
    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    const later = await open(t, 'POST', '/documents', {
      key: key.secret,
      body: { filename: 'contract.pdf', contentBase64: pdfBase64 },
      headers,
    });
    expect(later.status).toBe(201);
  });
});
