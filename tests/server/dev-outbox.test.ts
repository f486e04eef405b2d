import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendSmsCode } from '#contract/calls/session.ts';
import { Code } from '#contract/codes.ts';
import { type TestApp, createTestApp, uniquePhone } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

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
});
