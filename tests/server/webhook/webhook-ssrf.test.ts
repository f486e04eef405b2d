// Where webhooks may go with local receivers not allowed (production's rule; WEBHOOK_ALLOW_LOCAL=false):
// https only, and never to loopback, private, link-local, unique-local, "this network", shared or reserved
// addresses, nor to any block of the IANA special-purpose registries or IPv6 form that carries an IPv4
// address (NAT64, 6to4, Teredo, mapped; issue 23), checked when the endpoint is created and again at
// delivery after the host name is resolved (a name that now resolves to a private address: DNS rebinding).
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
import { canonicalIp, refusedRange } from '#server/modules/webhook/testing.ts';
import { type Agent, type TestApp, createTestApp, registerAndLogin } from '../helper.ts';
import { ok } from '../fixtures/flow.ts';

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
    // Any IPv6 form of an IPv4 address is refused, even of a public one: a receiver has a real address.
    expect(refusedRange('::ffff:8.8.8.8')).toBe('embedded-ipv4');
  });
});

// Issue 23 (L5): addresses the guard let through, which reach internal IPv4 addresses through NAT64, 6to4
// or Teredo, or are special-purpose blocks. Each is refused at creation, in both languages.
describe('special-purpose and IPv4-carrying addresses (issue 23)', () => {
  const EMBEDDED = {
    en: 'an IPv6 address that carries an IPv4 address (IPv4-mapped, NAT64, 6to4 or Teredo), which can lead to an internal network',
    zh: '内嵌 IPv4 地址的 IPv6 地址（IPv4 映射、NAT64、6to4 或 Teredo），可能通向内部网络',
  };
  test.each([
    // [URL, address as the URL writes it, range, English name, Chinese name]
    ['https://[2002:7f00:1::]/', '2002:7f00:1::', 'loopback', 'a loopback address', '本机回环地址'], // 6to4 of 127.0.0.1
    ['https://[::ffff:0:7f00:1]/', '::ffff:0:7f00:1', 'loopback', 'a loopback address', '本机回环地址'], // translated
    ['https://[64:ff9b:1::7f00:1]/', '64:ff9b:1::7f00:1', 'loopback', 'a loopback address', '本机回环地址'], // NAT64 local
    [
      'https://[64:ff9b:1::a9fe:a9fe]/',
      '64:ff9b:1::a9fe:a9fe',
      'link-local',
      'a link-local address',
      '链路本地地址',
    ],
    ['https://[fec0::1]/', 'fec0::1', 'site-local', 'a site-local IPv6 address', 'IPv6 站点本地地址'],
    ['https://[2001::1]/', '2001::1', 'embedded-ipv4', EMBEDDED.en, EMBEDDED.zh], // Teredo
    ['https://192.88.99.1/', '192.88.99.1', 'reserved', 'a reserved address', '保留地址'], // 6to4 relay anycast
    ['https://[64:ff9b::808:808]/', '64:ff9b::808:808', 'embedded-ipv4', EMBEDDED.en, EMBEDDED.zh], // NAT64 of 8.8.8.8
  ])('%s is refused (%s)', async (url, address, range, enName, zhName) => {
    const en = await create(url);
    expect(en.body).toEqual({
      code: Code.Refused,
      msg: `a webhook URL must reach a public address: ${address} is ${address}, ${enName}`,
      data: { host: address, address, range },
    });
    const zh = await create(url, 'zh-CN');
    expect(zh.body.msg).toBe(`回调地址须为公网地址：${address} 对应 ${address}，属于${zhName}`);
  });

  test.each([
    // The addresses of the report.
    ['2002:7f00:1::', 'loopback'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['64:ff9b:1::7f00:1', 'loopback'],
    ['64:ff9b:1::a9fe:a9fe', 'link-local'],
    ['fec0::1', 'site-local'],
    ['2001::1', 'embedded-ipv4'],
    ['192.88.99.1', 'reserved'],
    // IPv4 special-purpose registry, multicast, 240/4, broadcast.
    ['0.1.2.3', 'unspecified'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.254', 'shared'],
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private'],
    ['192.0.0.8', 'reserved'], // IETF protocol assignments
    ['192.0.0.170', 'reserved'], // NAT64 discovery
    ['192.0.2.55', 'reserved'], // TEST-NET-1
    ['192.31.196.1', 'reserved'], // AS112
    ['192.52.193.1', 'reserved'], // AMT
    ['192.168.0.1', 'private'],
    ['192.175.48.1', 'reserved'], // AS112 direct delegation
    ['198.19.255.255', 'reserved'], // benchmarking 198.18/15
    ['198.51.100.1', 'reserved'], // TEST-NET-2
    ['203.0.113.200', 'reserved'], // TEST-NET-3
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    // IPv6 special-purpose registry and every form that carries an IPv4 address.
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'], // IPv4-mapped
    ['::ffff:1.1.1.1', 'embedded-ipv4'],
    ['::ffff:0:a00:1', 'private'], // IPv4-translated
    ['::ffff:0:101:101', 'embedded-ipv4'],
    ['::a00:1', 'private'], // IPv4-compatible
    ['::101:101', 'embedded-ipv4'],
    ['64:ff9b::7f00:1', 'loopback'], // NAT64 well-known
    ['64:ff9b::101:101', 'embedded-ipv4'],
    ['64:ff9b:1:2::101:101', 'embedded-ipv4'], // NAT64 local use
    ['2002:a00:1::1', 'private'], // 6to4 of 10.0.0.1
    ['2002:101:101::1', 'embedded-ipv4'], // 6to4 of 1.1.1.1
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'embedded-ipv4'], // Teredo
    ['100::1', 'reserved'], // discard-only
    ['2001:2::1', 'reserved'], // benchmarking
    ['2001:3::1', 'reserved'], // AMT
    ['2001:4:112::1', 'reserved'], // AS112
    ['2001:10::1', 'reserved'], // ORCHID
    ['2001:20::1', 'reserved'], // ORCHIDv2
    ['2001:30::1', 'reserved'], // DETs
    ['2001:1ff::1', 'reserved'], // the rest of 2001::/23
    ['2001:db8:85a3::8a2e:370:7334', 'reserved'], // documentation
    ['2620:4f:8000::1', 'reserved'], // AS112 direct delegation
    ['3fff:fff::1', 'reserved'], // documentation 3fff::/20
    ['5f00::1', 'reserved'], // SRv6 SIDs
    ['fc00::1', 'unique-local'],
    ['fdff:ffff::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['feff::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['1::1', 'reserved'], // outside global unicast 2000::/3
    ['4000::1', 'reserved'],
    ['e000::1', 'reserved'],
  ])('%s is %s', (address, range) => {
    expect(refusedRange(address)).toBe(range);
  });

  test.each([
    // Every textual form: compressed or full, upper case, dotted tails, brackets, zone ids, IPv4 shorthands.
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['0000:0000:0000:0000:0000:0000:0000:0001', 'loopback'],
    ['[::1]', 'loopback'],
    ['::FFFF:127.0.0.1', 'loopback'],
    ['0:0:0:0:0:FFFF:7F00:0001', 'loopback'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['64:FF9B:1::127.0.0.1', 'loopback'],
    ['64:ff9b:1:0:0:0:a9fe:a9fe', 'link-local'],
    ['[2002:7F00:0001:0000::]', 'loopback'],
    ['2002:7f00:1::%eth0', 'loopback'],
    ['fe80::1%eth0', 'link-local'],
    ['[fe80::1%25en0]', 'link-local'],
    ['FEC0:0:0:0:0:0:0:1', 'site-local'],
    ['2001:0000::1', 'embedded-ipv4'],
    ['127.1', 'loopback'],
    ['0x7f.0.0.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['0xa9fea9fe', 'link-local'],
    ['not-an-address', 'reserved'],
    ['1.2.3.4.5', 'reserved'],
    [':::1', 'reserved'],
  ])('%s (another textual form) is %s', (address, range) => {
    expect(refusedRange(address)).toBe(range);
  });

  test('the canonical form of an address', () => {
    expect(canonicalIp('::FFFF:127.0.0.1')).toEqual({ family: 6, address: '::ffff:7f00:1' });
    expect(canonicalIp('[fe80::1%eth0]')).toEqual({ family: 6, address: 'fe80::1' });
    expect(canonicalIp('127.1')).toEqual({ family: 4, address: '127.0.0.1' });
    expect(canonicalIp('example.com')).toBeNull();
  });

  test.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '100.63.255.255', // just below shared 100.64/10
    '100.128.0.1', // just above it
    '172.15.255.255',
    '192.88.98.1',
    '198.17.255.255',
    '198.20.0.1',
    '223.255.255.254',
    '2606:4700::1111',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2001:200::1', // just above 2001::/23
    '2400:cb00:2048:1::c629:d7a2',
    '2a00:1450:4001:80b::200e',
    '3ffe:ffff::1', // 2000::/3, outside 3fff::/20
    '2620:4f:8001::1',
  ])('%s is public', (address) => {
    expect(refusedRange(address)).toBeNull();
  });

  test('ordinary public addresses are accepted at creation', async () => {
    for (const url of ['https://8.8.8.8/hooks', 'https://[2606:4700::1111]/hooks']) {
      const made = ok(await create(url), `create ${url}`);
      expect(made.url).toBe(url);
    }
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
      expect(d.attempts[0].error).toMatch(
        /^refused: localhost is (127\.0\.0\.1|::1), in the loopback range$/,
      );
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((r) => listener.close(() => r()));
    }
  });

  // The same check at delivery for an address written in the URL (no name lookup happens for it).
  test.each([
    '[2002:7f00:1::]',
    '[::ffff:0:7f00:1]',
    '[64:ff9b:1::7f00:1]',
    '[64:ff9b:1::a9fe:a9fe]',
    '[fec0::1]',
    '[2001::1]',
    '192.88.99.1',
  ])('a stored endpoint at %s is not connected to', async (host) => {
    const made = ok(await create('https://93.184.215.14/hooks'), 'create');
    await t.db.execute(
      sql`UPDATE webhook_endpoints SET url = ${`https://${host}/hooks`} WHERE id = ${made.endpointId}`,
    );
    const d = ok(
      await agent.call<WebhookDelivery>(sendWebhookTestEvent, { userType: 0, endpointId: made.endpointId }),
      'test event',
    );
    expect(d.state).not.toBe('delivered');
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0]).toMatchObject({ ok: false, responseCode: null });
    const address = host.replace(/^\[|\]$/g, '');
    expect(d.attempts[0].error).toBe(
      `refused: ${address} is ${address}, in the ${refusedRange(address)} range`,
    );
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
