// A notice e-mail the SMTP server refuses for now (451) is delivered again by the messaging.redeliver job,
// after the messenger's quick in-request retries, instead of being lost. The test's clock drives the waits.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setNoticeEmail } from '#contract/calls/messaging.ts';
import { messageDeliveries } from '#server/db/schema/messages.ts';
import { type TestApp, createTestApp, registerAndLogin } from '../helper.ts';

const MINUTE = 60_000;

let smtp: SMTPServer;
let t: TestApp;
/** How many more messages the server refuses with 451 before it accepts. */
let refuseNext = 0;
const delivered: string[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, cb) {
      if (refuseNext > 0) {
        refuseNext -= 1;
        const err = Object.assign(new Error('mailbox busy, try later'), { responseCode: 451 });
        cb(err);
        return;
      }
      cb();
    },
    onData(stream, session, cb) {
      stream.on('data', () => {});
      stream.on('end', () => {
        delivered.push(...session.envelope.rcptTo.map((r) => r.address));
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  const port = (smtp.server.address() as AddressInfo).port;
  t = await createTestApp({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: 'E-Sign <no-reply@esign.test>',
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await new Promise<void>((r) => smtp?.close(() => r()));
});

describe('redelivery of a notice e-mail', () => {
  it('a temporarily refused e-mail goes out later by the job, every attempt counted', async () => {
    const { agent, phone } = await registerAndLogin(t);
    const res = await agent.call(setNoticeEmail, { userType: 0, email: 'wang@example.test', lang: 'en' });
    expect(res.body.code).toBe(0);
    // The three quick attempts inside the request and the job's first one are refused.
    refuseNext = 4;
    await t.deps.messenger.notify({
      to: phone,
      purpose: 'flow:sign_request',
      text: 'invitation',
      mail: { kind: 'sign_request', flowTitle: 'Lease 2029', who: '王发起', link: null },
    });
    const row = async () => (await t.db.select().from(messageDeliveries)).at(-1)!;
    expect(await row()).toMatchObject({
      channel: 'email',
      status: 'failed',
      failureKind: 'temporary',
      attempts: 3,
    });
    expect(delivered).toEqual([]);

    t.clock.advance(MINUTE + 1000);
    await t.runDueJobs();
    expect(await row()).toMatchObject({ status: 'failed', attempts: 4 });
    t.clock.advance(5 * MINUTE);
    await t.runDueJobs();
    expect(await row()).toMatchObject({ status: 'sent', attempts: 5, errorCode: null });
    expect(delivered).toEqual(['wang@example.test']);
  }, 60_000);
});
