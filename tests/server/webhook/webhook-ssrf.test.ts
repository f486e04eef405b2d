// Where webhooks may go with local receivers not allowed (production's rule; WEBHOOK_ALLOW_LOCAL=false):
// https only, and never to loopback, private, link-local, unique-local, "this network", shared or reserved
// addresses, checked when the endpoint is created and again at delivery after the host name is resolved
// (a name that now resolves to a private address: DNS rebinding).
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type WebhookDelivery,
  type WebhookEndpoint,
  createWebhookEndpoint,
  sendWebhookTestEvent,
} from '#contract/calls/webhook.ts';
import { Code } from '#contract/codes.ts';
import { refusedRange } from '#server/modules/webhook/address-guard.ts';
import { type Agent, type TestApp, createTestApp, registerAndLogin } from '../helper.ts';
import { ok } from '../flow/flow-support.ts';

let t: TestApp;
let agent: Agent;

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_LOCAL: 'false' });
  agent = (await registerAndLogin(t)).agent;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const create = (url: string, lang = 'en') =>
  agent.call<WebhookEndpoint & { secret: string }>(
    createWebhookEndpoint,
    { userType: 0, url, events: ['flow.launched'] },
    { headers: { 'accept-language': lang } },
  );

describe('at creation', () => {
  test('plain http is refused, even to a public address', async () => {
    const en = await create('http://93.184.215.14/hooks');
    expect(en.body).toMatchObject({ code: Code.Refused, msg: 'a webhook URL must use https', data: null });
    const zh = await create('http://93.184.215.14/hooks', 'zh-CN');
    expect(zh.body.msg).toBe('回调地址须使用 https');
  });

  test.each([
    ['https://127.0.0.1/hooks', '127.0.0.1', '127.0.0.1', 'loopback', 'a loopback address', '本机回环地址'],
    ['https://[::1]:8443/hooks', '::1', '::1', 'loopback', 'a loopback address', '本机回环地址'],
    ['https://10.1.2.3/', '10.1.2.3', '10.1.2.3', 'private', 'a private network address', '内网私有地址'],
    [
      'https://172.20.0.1/',
      '172.20.0.1',
      '172.20.0.1',
      'private',
      'a private network address',
      '内网私有地址',
    ],
    [
      'https://192.168.1.10/',
      '192.168.1.10',
      '192.168.1.10',
      'private',
      'a private network address',
      '内网私有地址',
    ],
    [
      'https://169.254.169.254/latest/meta-data/',
      '169.254.169.254',
      '169.254.169.254',
      'link-local',
      'a link-local address',
      '链路本地地址',
    ],
    ['https://[fe80::1]/', 'fe80::1', 'fe80::1', 'link-local', 'a link-local address', '链路本地地址'],
    [
      'https://[fd12:3456::1]/',
      'fd12:3456::1',
      'fd12:3456::1',
      'unique-local',
      'a unique-local IPv6 address',
      'IPv6 唯一本地地址',
    ],
    [
      'https://0.0.0.0/',
      '0.0.0.0',
      '0.0.0.0',
      'unspecified',
      'an unspecified ("this network") address',
      '未指定地址（本网络）',
    ],
    [
      'https://[::]/',
      '::',
      '::',
      'unspecified',
      'an unspecified ("this network") address',
      '未指定地址（本网络）',
    ],
    [
      'https://100.64.1.1/',
      '100.64.1.1',
      '100.64.1.1',
      'shared',
      'a carrier-grade NAT address',
      '运营商级 NAT 共享地址',
    ],
    // An IPv4 address dressed as IPv6 is judged as the IPv4 address it carries.
    [
      'https://[::ffff:127.0.0.1]/',
      '::ffff:7f00:1',
      '::ffff:7f00:1',
      'loopback',
      'a loopback address',
      '本机回环地址',
    ],
    [
      'https://[::ffff:a9fe:a9fe]/',
      '::ffff:a9fe:a9fe',
      '::ffff:a9fe:a9fe',
      'link-local',
      'a link-local address',
      '链路本地地址',
    ],
  ])('%s is refused (%s)', async (url, host, address, range, enName, zhName) => {
    const en = await create(url);
    expect(en.body).toEqual({
      code: Code.Refused,
      msg: `a webhook URL must reach a public address: ${host} is ${address}, ${enName}`,
      data: { host, address, range },
    });
    const zh = await create(url, 'zh-CN');
    expect(zh.body.msg).toBe(`回调地址须为公网地址：${host} 对应 ${address}，属于${zhName}`);
  });

  test('a name is judged by what it resolves to', async () => {
    const res = await create('https://localhost/hooks');
    expect(res.body.code).toBe(Code.Refused);
    expect(res.body.msg).toMatch(
      /^a webhook URL must reach a public address: localhost is (127\.0\.0\.1|::1), a loopback address$/,
    );
    expect(res.body.data).toMatchObject({ host: 'localhost', range: 'loopback' });
  });

  test('a name that does not resolve is refused', async () => {
    const res = await create('https://no-such-host.invalid/hooks');
    expect(res.body).toEqual({
      code: Code.Refused,
      msg: "the webhook URL's host no-such-host.invalid could not be resolved",
      data: { host: 'no-such-host.invalid' },
    });
  });

  test('an https URL on a public address is accepted', async () => {
    const made = ok(await create('https://93.184.215.14/hooks'), 'create');
    expect(made.url).toBe('https://93.184.215.14/hooks');
  });

  test('each address class', () => {
    expect(refusedRange('8.8.8.8')).toBeNull();
    expect(refusedRange('2606:4700::1111')).toBeNull();
    expect(refusedRange('127.255.0.1')).toBe('loopback');
    expect(refusedRange('172.31.255.255')).toBe('private');
    expect(refusedRange('172.32.0.1')).toBeNull();
    expect(refusedRange('192.0.2.1')).toBe('reserved');
    expect(refusedRange('198.18.0.1')).toBe('reserved');
    expect(refusedRange('224.0.0.1')).toBe('multicast');
    expect(refusedRange('255.255.255.255')).toBe('reserved');
    expect(refusedRange('ff02::1')).toBe('multicast');
    expect(refusedRange('64:ff9b::a00:1')).toBe('private'); // NAT64 of 10.0.0.1
    expect(refusedRange('::ffff:8.8.8.8')).toBeNull();
  });
});

describe('at delivery', () => {
  test('a stored endpoint whose name now resolves to a loopback address is not connected to', async () => {
    // Anything listening on this port would be reached if the guard did not refuse the resolved address.
    let connections = 0;
    const listener = createServer((s) => {
      connections += 1;
      s.destroy();
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    try {
      const made = ok(await create('https://93.184.215.14/hooks'), 'create');
      // The endpoint's host is a name that resolves to 127.0.0.1 by the time of delivery (as a name whose
      // DNS record was changed after the endpoint was created would).
      const port = (listener.address() as AddressInfo).port;
      await t.db.execute(
        sql`UPDATE webhook_endpoints SET url = ${`https://localhost:${port}/hooks`} WHERE id = ${made.endpointId}`,
      );
      const d = ok(
        await agent.call<WebhookDelivery>(sendWebhookTestEvent, { userType: 0, endpointId: made.endpointId }),
        'test event',
      );
      expect(d.state).not.toBe('delivered');
      expect(d.attempts).toHaveLength(1);
      expect(d.attempts[0]).toMatchObject({ ok: false, responseCode: null });
      expect(d.attempts[0].error).toMatch(/^refused: localhost is (127\.0\.0\.1|::1), a loopback address$/);
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((r) => listener.close(() => r()));
    }
  });

  test('a stored http URL is refused at delivery too', async () => {
    const made = ok(await create('https://93.184.215.14/hooks'), 'create');
    await t.db.execute(
      sql`UPDATE webhook_endpoints SET url = 'http://93.184.215.14/hooks' WHERE id = ${made.endpointId}`,
    );
    const d = ok(
      await agent.call<WebhookDelivery>(sendWebhookTestEvent, { userType: 0, endpointId: made.endpointId }),
      'test event',
    );
    expect(d.attempts[0].error).toBe('refused: not https');
  });
});
