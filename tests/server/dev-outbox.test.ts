import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { sendSmsCode } from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { type TestApp, createTestApp, uniquePhone, appForFile } from './helper.ts';
import { startServerProcess } from './fixtures/server-process.ts';

const t = appForFile();

describe('development outbox', () => {
  it('lists the messages to a phone, latest first, with their codes', async () => {
    const phone = uniquePhone();
    const other = uniquePhone();
    await t.agent().call(sendSmsCode, { userType: 0, phone, purpose: 'register' });
    await t.agent().call(sendSmsCode, { userType: 0, phone: other, purpose: 'register' });
    t.clock.advance(61_000);
    await t.agent().call(sendSmsCode, { userType: 0, phone, purpose: 'register' });
    const res = await t
      .agent()
      .get<{ id: number; to: string; code: string; channel: string; createdAt: string }[]>(
        `/v1/dev/outbox?phone=${phone}&ts=${Date.now()}`,
      );
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const list = res.body.data;
    expect(list).toHaveLength(2);
    expect(list.every((m) => m.to === phone && m.channel === 'sms' && /^\d{6}$/.test(m.code))).toBe(true);
    expect(list[0].id).toBeGreaterThan(list[1].id);
    expect(Object.keys(list[0]).sort()).toEqual([
      'channel',
      'code',
      'createdAt',
      'id',
      'purpose',
      'text',
      'to',
    ]);
    expect(await t.smsCodeFor(phone)).toBe(list[0].code);
  });

  it('has a small HTML page', async () => {
    const phone = uniquePhone();
    await t.agent().call(sendSmsCode, { userType: 0, phone, purpose: 'register' });
    const res = await t.agent().get(`/v1/dev/outbox.html?phone=${phone}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain(await t.smsCodeFor(phone));
    expect(res.text).toContain('1 message, latest first.');
  });

  it('is absent in production mode', async () => {
    const prod = await createTestApp({ NODE_ENV: 'production', ESIGN_MASTER_KEY: 'x'.repeat(40) });
    try {
      const phone = uniquePhone();
      expect(
        (await prod.agent().call(sendSmsCode, { userType: 0, phone, purpose: 'register' })).body.code,
      ).toBe(0);
      const res = await prod.agent().get(`/v1/dev/outbox?phone=${phone}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(Code.UnknownCall);
      expect((await prod.agent().get('/v1/dev/outbox.html')).status).toBe(404);
    } finally {
      await prod.close();
    }
  });

  type Headers = Record<string, string>;
  const fromAddress = (
    app: TestApp,
    url: string,
    remoteAddress: string,
    headers: Record<string, string> = {},
  ) => app.app.inject({ method: 'GET', url, remoteAddress, headers });

  it('refuses a client that is not on this machine, saying why in both languages', async () => {
    const phone = uniquePhone();
    await t.agent().call(sendSmsCode, { userType: 0, phone, purpose: 'register' });
    const code = await t.smsCodeFor(phone);
    // The simulated central login logs anyone in by phone: the same rule.
    const urls = [
      `/v1/dev/outbox?phone=${phone}`,
      `/v1/dev/outbox.html?phone=${phone}`,
      `/v1/dev/hy-login?phone=${phone}`,
      '/v1/dev/hy-logout',
    ];
    for (const url of urls) {
      for (const address of ['192.168.1.20', '10.0.0.7', '::ffff:192.168.1.20', '2001:db8::1']) {
        const res = await fromAddress(t, url, address);
        expect(res.statusCode).toBe(403);
        expect(res.body).not.toContain(code);
        expect(res.headers['set-cookie']).toBeUndefined();
        expect(res.json()).toEqual({
          code: Code.Refused,
          msg: expect.stringMatching(/loopback/),
          data: null,
        });
      }
      const zh = await fromAddress(t, url, '192.168.1.20', { 'accept-language': 'zh-CN' });
      expect(zh.json().msg).toMatch(/本机/);
      // The machine itself, over IPv4 or IPv6, is answered.
      for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
        expect((await fromAddress(t, url, address)).statusCode).toBe(200);
    }
  });

  it('cannot be opened by forging X-Forwarded-For, with or without TRUST_PROXY', async () => {
    const proxied = await createTestApp({ TRUST_PROXY: 'true' });
    try {
      for (const app of [t, proxied]) {
        // A remote client claiming to be the machine itself.
        for (const headers of [
          { 'x-forwarded-for': '127.0.0.1' },
          { 'x-real-ip': '127.0.0.1' },
          { forwarded: 'for=127.0.0.1' },
        ] as Headers[])
          expect((await fromAddress(app, '/v1/dev/outbox', '203.0.113.7', headers)).statusCode).toBe(403);
        // A proxy on this machine passing on a remote client (e.g. `vite --host`, which sets X-Forwarded-For).
        for (const headers of [
          { 'x-forwarded-for': '203.0.113.7' },
          { 'x-forwarded-for': '127.0.0.1, 203.0.113.7' },
          { forwarded: 'for="[2001:db8::1]:4711"' },
        ] as Headers[])
          expect((await fromAddress(app, '/v1/dev/outbox', '127.0.0.1', headers)).statusCode).toBe(403);
        // A proxy on this machine passing on a client on this machine.
        const local = { 'x-forwarded-for': '127.0.0.1', forwarded: 'for="[::1]:4711"' };
        expect((await fromAddress(app, '/v1/dev/outbox', '127.0.0.1', local)).statusCode).toBe(200);
      }
    } finally {
      await proxied.close();
    }
  });
});

describe('a new user running the server', () => {
  it('listens on loopback only, so the outbox is out of the network’s reach', async () => {
    const server = await startServerProcess();
    try {
      const listening = server.listening;
      expect(listening, server.output()).not.toBeNull();
      const { host, port } = listening!;
      expect(host).toBe('127.0.0.1');
      const res = await fetch(`http://127.0.0.1:${port}/v1/dev/outbox`);
      expect(res.status).toBe(200);
      // Every other address of this machine refuses the connection.
      const others = Object.values(networkInterfaces())
        .flat()
        .filter((i) => i && !i.internal && i.family === 'IPv4')
        .map((i) => i!.address);
      for (const address of others) {
        const refused = await new Promise<boolean>((done) => {
          const socket = connect({ host: address, port: Number(port) });
          socket.once('connect', () => {
            socket.destroy();
            done(false);
          });
          socket.once('error', () => done(true));
        });
        expect(refused, `${address}:${port} accepted a connection`).toBe(true);
      }
    } finally {
      await server.stop();
    }
  }, 90_000);
});
