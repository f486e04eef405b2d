// Issue 23, L6: parallel uploads may hold only so much memory. Six parallel large uploads to
// `POST /open/v1/documents` took a server from 546 MB to 1,062 MB: every body was read into memory at once.
// Here, through the real HTTP layer (the app listening on a port, requests from node:http) and with a small
// budget (UPLOAD_LIMIT_MB 1, UPLOAD_BUDGET_MB 3, UPLOADS_PER_CALLER 2) so that it is fast: uploads are held
// open mid-body, so that which are admitted does not depend on timing. Beyond the budget an upload is refused
// before its body is read (429 per key or account, 503 in total, code 1005, Retry-After, msg in the request's
// language); the admitted ones succeed; once they end, or their connection drops, new uploads are admitted.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Code } from '#contract/codes.ts';
import { uploadDocument } from '#contract/calls/document.ts';
import { callPath } from '#contract/envelope.ts';
import { KEY_SUFFIX_HEADER, XSRF_HEADER, keySuffixOf } from '#contract/transport.ts';
import { ConfigError, loadConfig } from '#server/config.ts';
import { uploadBudgetOf } from '#server/http/upload-budget.ts';
import { type Agent, type TestApp, createTestApp, registerAndLogin } from '../helper.ts';
import { contractPdf, paddedPdf } from '../fixtures/flow.ts';
import { makeKey } from '../fixtures/open.ts';

const MB = 1024 * 1024;
const BUDGET = 3 * MB;

let t: TestApp;
let base: string;
/** Keys of one person (each key is a caller of its own) and a second person's workspace session. */
let keys: string[];
let worker: Agent;
/** A JSON body of POST /open/v1/documents (~0.93 MB: three fit in the budget, four do not). */
let openBody: Buffer;
/** A multipart body of the workspace's uploadDocument (~0.7 MB). */
let formBody: Buffer;
let formType: string;

type Answer = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { code: number; msg: string; data: unknown };
};

/**
 * One POST through a socket: `stallAt` sends that many bytes of the body and waits for finish() (or abort());
 * `chunked` sends it without Content-Length, in 64 KiB pieces.
 */
function post(
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  opts: { stallAt?: number; chunked?: boolean } = {},
) {
  const req = http.request(`${base}${path}`, {
    method: 'POST',
    headers: opts.chunked ? headers : { ...headers, 'content-length': String(body.length) },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) });
      });
    });
    req.on('error', reject);
  });
  let answered: Answer | null = null;
  answer.then(
    (a) => {
      answered = a;
    },
    () => {}, // an aborted one is never awaited
  );
  const sendFrom = async (from: number) => {
    for (let at = from; at < body.length; at += 64 * 1024) {
      if (req.destroyed) return;
      if (!req.write(body.subarray(at, Math.min(at + 64 * 1024, body.length))))
        await new Promise((r) => req.once('drain', r));
    }
    req.end();
  };
  if (opts.stallAt !== undefined) req.write(body.subarray(0, opts.stallAt));
  else void sendFrom(0);
  return {
    answer,
    /** The answer, once it has come (a refusal comes before the body is sent). */
    get answered() {
      return answered;
    },
    finish: () => {
      void sendFrom(opts.stallAt ?? 0);
      return answer;
    },
    abort: () => req.destroy(),
  };
}

const openUpload = (key: string, opts: { stallAt?: number; chunked?: boolean; lang?: string } = {}) =>
  post(
    '/open/v1/documents',
    {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...(opts.lang ? { 'accept-language': opts.lang } : {}),
    },
    openBody,
    opts,
  );

const workspaceUpload = (agent: Agent, opts: { stallAt?: number } = {}) => {
  const token = agent.token ?? '';
  return post(
    callPath(uploadDocument),
    {
      cookie: [...agent.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '),
      [XSRF_HEADER]: token,
      [KEY_SUFFIX_HEADER]: keySuffixOf(token),
      'content-type': formType,
    },
    formBody,
    opts,
  );
};

const budget = () => uploadBudgetOf(t.deps).state;

/** Waits until the server holds `uploads` uploads (admitted ones, mid-body). */
async function untilHeld(uploads: number) {
  for (let i = 0; i < 500 && budget().uploads !== uploads; i++) await new Promise((r) => setTimeout(r, 10));
  expect(budget().uploads).toBe(uploads);
}

function expectRefused(a: Answer, status: 429 | 503) {
  expect(a.status).toBe(status);
  expect(a.body.code).toBe(Code.RateLimited);
  expect(a.headers['retry-after']).toBe('5');
  expect(a.body.data).toEqual({ retryAfterSeconds: 5 });
}

/** A valid PDF of about `size` bytes (an incompressible attachment makes up the size). */
beforeAll(async () => {
  t = await createTestApp({
    UPLOAD_LIMIT_MB: '1',
    UPLOAD_BUDGET_MB: '3',
    UPLOADS_PER_CALLER: '2',
    OPEN_API_RATE_PER_MINUTE: '100000',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const owner = (await registerAndLogin(t)).agent;
  keys = [];
  for (let i = 0; i < 6; i++) keys.push((await makeKey(owner, ['flows:write'], 0, `key ${i}`)).secret);
  worker = (await registerAndLogin(t)).agent;
  const pdf = await paddedPdf(await contractPdf(1), 700_000);
  openBody = Buffer.from(
    JSON.stringify({ filename: 'big.pdf', contentBase64: Buffer.from(pdf).toString('base64') }),
  );
  expect(openBody.length).toBeGreaterThan(BUDGET / 4);
  expect(openBody.length * 3).toBeLessThan(BUDGET);
  const boundary = '----budget-test';
  formType = `multipart/form-data; boundary=${boundary}`;
  formBody = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="userType"\r\n\r\n0\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    Buffer.from(pdf),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}, 120_000);
afterAll(async () => {
  http.globalAgent.destroy(); // its kept-alive sockets would hold the server's close
  await t?.close();
});

describe('L6: parallel uploads to POST /open/v1/documents', () => {
  test('six parallel large uploads: the server holds at most the budget, the rest are refused (503) before their body is read', async () => {
    // Six keys, one upload each, all but their last bytes sent: before the budget, all six bodies were held.
    const six = keys.map((key) => openUpload(key, { stallAt: openBody.length - 1 }));
    // Which three are admitted is the order their headers arrived in: the refused are the ones answered.
    await untilHeld(3);
    for (let i = 0; i < 500 && six.filter((u) => u.answered).length < 3; i++)
      await new Promise((r) => setTimeout(r, 10));
    const refused = six.filter((u) => u.answered);
    expect(refused).toHaveLength(3);
    for (const u of refused) {
      expectRefused(u.answered!, 503);
      u.abort(); // answered: the rest of its body is never sent
    }
    expect(budget().heldBytes).toBe(3 * openBody.length);
    expect(budget().heldBytes).toBeLessThanOrEqual(BUDGET);
    // The admitted ones finish and are stored.
    const admitted = six.filter((u) => !u.answered);
    for (const a of await Promise.all(admitted.map((u) => u.finish()))) {
      expect(a.status).toBe(201);
      expect((a.body.data as { pages: number }).pages).toBe(1);
    }
    expect(budget()).toMatchObject({ uploads: 0, heldBytes: 0 });
    expect(budget().peakBytes).toBeLessThanOrEqual(BUDGET);
    // And with the budget free again, a new upload is admitted.
    expect((await openUpload(keys[0]).answer).status).toBe(201);
  });

  test('per key: a third upload of a key with two in flight is 429, in the request’s language; others go on', async () => {
    const [a1, a2] = [0, 1].map(() => openUpload(keys[0], { stallAt: 1000 }));
    await untilHeld(2);
    const third = await openUpload(keys[0]).answer;
    expectRefused(third, 429);
    expect(third.body.msg).toMatch(/too many uploads from this account/);
    const zh = await openUpload(keys[0], { lang: 'zh-CN' }).answer;
    expectRefused(zh, 429);
    expect(zh.body.msg).toBe('该账号同时上传的文件过多，请稍后再试');
    // another key is not held back by it
    const b1 = openUpload(keys[1], { stallAt: 1000 });
    await untilHeld(3);
    // the budget is now full: a fourth body does not fit
    const c1 = await openUpload(keys[2], { lang: 'zh-CN' }).answer;
    expectRefused(c1, 503);
    expect(c1.body.msg).toBe('服务器正在接收的上传过多，请稍后再试');

    expect((await a1.finish()).status).toBe(201);
    // a1 done: key 0 and the budget have room again
    expect((await openUpload(keys[2]).answer).status).toBe(201);
    expect((await openUpload(keys[0]).answer).status).toBe(201);

    // A dropped connection gives its share back.
    a2.abort();
    await untilHeld(1);
    expect(budget().heldBytes).toBe(openBody.length);
    const [x, y] = await Promise.all([openUpload(keys[0]).answer, openUpload(keys[0]).answer]);
    expect([x.status, y.status]).toEqual([201, 201]);

    expect((await b1.finish()).status).toBe(201);
    expect(budget()).toMatchObject({ uploads: 0, heldBytes: 0 });
  });

  test('a body without Content-Length is counted as it arrives and refused (503) once past the budget', async () => {
    const held = [keys[0], keys[0], keys[1]].map((key) => openUpload(key, { stallAt: 1000 }));
    await untilHeld(3);
    const chunked = await openUpload(keys[2], { chunked: true }).answer;
    expectRefused(chunked, 503);
    await untilHeld(3);
    expect(budget().heldBytes).toBe(3 * openBody.length);
    held[0].abort();
    await untilHeld(2);
    const again = await openUpload(keys[2], { chunked: true }).answer;
    expect(again.status).toBe(201);
    for (const u of held.slice(1)) u.abort();
    await untilHeld(0);
    expect(budget().heldBytes).toBe(0);
  });
});

describe('workspace uploads (registerUpload) share the budget', () => {
  test('per account 429, in total 503, admitted ones succeed, a dropped one is released', async () => {
    const w1 = workspaceUpload(worker, { stallAt: 1000 });
    const w2 = workspaceUpload(worker, { stallAt: 1000 });
    await untilHeld(2);
    const w3 = await workspaceUpload(worker).answer;
    expectRefused(w3, 429);
    expect(w3.body.msg).toMatch(/too many uploads from this account/);
    const done = await w1.finish();
    expect(done.status).toBe(200);
    expect(done.body.code).toBe(0);
    w2.abort();
    await untilHeld(0);

    // three open uploads fill the budget: a workspace upload of another account does not fit
    const held = [keys[0], keys[0], keys[1]].map((key) => openUpload(key, { stallAt: 1000 }));
    await untilHeld(3);
    const other = (await registerAndLogin(t)).agent;
    expectRefused(await workspaceUpload(other).answer, 503);
    expect((await held[0].finish()).status).toBe(201);
    const admitted = await workspaceUpload(other).answer;
    expect(admitted.status).toBe(200);
    expect(admitted.body.code).toBe(0);
    for (const u of held.slice(1)) u.abort();
    await untilHeld(0);
    expect(budget().heldBytes).toBe(0);
  });
});

describe('settings', () => {
  const env = { NODE_ENV: 'test', DATA_DIR: '/tmp/unused' };
  test('the budget defaults to two of the largest upload body, and refuses one smaller than a single upload', () => {
    const c = loadConfig(env);
    expect(c.uploadBudgetBytes).toBe(2 * (Math.ceil(50 * MB * 1.4) + 4096));
    expect(c.uploadsPerCaller).toBe(4);
    expect(loadConfig({ ...env, UPLOAD_BUDGET_MB: '512', UPLOADS_PER_CALLER: '1' })).toMatchObject({
      uploadBudgetBytes: 512 * MB,
      uploadsPerCaller: 1,
    });
    expect(() => loadConfig({ ...env, UPLOAD_BUDGET_MB: '60' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, UPLOAD_BUDGET_MB: '60' })).toThrow(
      /UPLOAD_BUDGET_MB: must be at least 71/,
    );
  });
});
