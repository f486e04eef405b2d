import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNoticeEmail, setNoticeEmail } from '#contract/calls/messaging.ts';
import { declineFlow } from '#contract/calls/flow.ts';
import { messageDeliveries } from '#server/db/schema/messages.ts';
import {
  type Signer,
  contractPdf,
  launchForOne,
  ok,
  openByLink,
  personWithCert,
  signByLink,
} from '../fixtures/flow.ts';
import { type TestApp, createTestApp } from '../helper.ts';

type Mail = { from: string; to: string[]; raw: string; subject: string; text: string };

/** RFC 2047 encoded words (=?UTF-8?B?…?= / =?UTF-8?Q?…?=), as nodemailer writes a non-ASCII subject. */
function decodeWords(s: string): string {
  return s
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, enc: string, data: string) =>
      enc.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

function decodeBody(body: string, encoding: string): string {
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/quoted-printable/i.test(encoding))
    return Buffer.from(
      body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  return body;
}

/** The subject and the text/plain part of a raw message (enough MIME for what nodemailer writes). */
function parse(raw: string): { subject: string; text: string } {
  const unfolded = raw.replace(/\r?\n[ \t]+/g, ' ');
  const subject = decodeWords(/^Subject: (.*)$/im.exec(unfolded)?.[1] ?? '');
  const part =
    /Content-Type: text\/plain[^\r\n]*\r?\n(?:Content-Transfer-Encoding: ([^\r\n]+)\r?\n)?\r?\n([\s\S]*?)(?:\r?\n--|$)/i.exec(
      raw,
    );
  return { subject, text: part ? decodeBody(part[2], part[1] ?? '7bit') : '' };
}

let smtp: SMTPServer;
let port: number;
const mails: Mail[] = [];
let t: TestApp;
let launcher: Signer;
let signer: Signer;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === 'mailer' && auth.password === 'mail-secret') cb(null, { user: 'mailer' });
      else cb(new Error('535 authentication failed'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parse(raw),
        });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  port = (smtp.server.address() as AddressInfo).port;
  t = await createTestApp({
    SMTP_URL: `smtp://mailer:mail-secret@127.0.0.1:${port}`,
    MAIL_FROM: 'E-Sign <no-reply@esign.test>',
    PUBLIC_URL: 'https://sign.example.test',
    SMS_RESEND_SECONDS: '0',
  });
  launcher = await personWithCert(t, '张发起');
  signer = await personWithCert(t, '李签署');
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((r) => smtp?.close(() => r()));
});

const mailsTo = (address: string) => mails.filter((m) => m.to.includes(address));

async function launch(title: string): Promise<string> {
  const launched = await launchForOne(launcher.agent, signer, {
    pdf: await contractPdf(1, title),
    title,
    position: { page: 1, mm: { left: 20, top: 20, width: 36, height: 18 } },
  });
  return launched.flowId;
}

describe('notices by e-mail (SMTP_URL, MAIL_FROM, nodemailer)', () => {
  it('a person sets the address, language and platform brand of their notices', async () => {
    const empty = ok(await signer.agent.call(getNoticeEmail, { userType: 0 }), 'get');
    expect(empty).toEqual({ email: null, lang: 'zh', isMailConfigured: true });
    const bad = await signer.agent.call(setNoticeEmail, { userType: 0, email: 'not-an-address', lang: 'en' });
    expect(bad.body.code).not.toBe(0);
    const set = await signer.agent.call(setNoticeEmail, {
      userType: 0,
      email: 'li@example.test',
      lang: 'en',
    });
    expect(ok(set, 'set')).toEqual({ email: 'li@example.test', lang: 'en', isMailConfigured: true });
    ok(
      await launcher.agent.call(setNoticeEmail, {
        userType: 0,
        email: 'zhang@example.test',
        lang: 'zh',
        fromPtCode: 'ZHDB',
      }),
      'set launcher',
    );
  });

  it('launch: the signer gets the signing request in English with the link to the room', async () => {
    await launch('Lease 2026');
    const [mail] = mailsTo('li@example.test');
    expect(mail).toBeDefined();
    expect(mail.from).toBe('no-reply@esign.test');
    expect(mail.subject).toBe('【E-Signature Platform】To sign: "Lease 2026"');
    expect(mail.text).toContain('张发起 invites you to sign "Lease 2026"');
    expect(mail.text).toMatch(/https:\/\/sign\.example\.test\/#\/singingRoom\/\d\/[A-Za-z0-9_-]+/);
    expect(mail.raw).toMatch(/<html lang=(3D)?"en"/);
  });

  it('completed: both get it in their own language and brand, with a link and no attachment', async () => {
    ok(await signByLink(t, signer.agent, signer), 'sign');
    const toLauncher = mailsTo('zhang@example.test').find((m) => m.subject.includes('已完成签署'));
    expect(toLauncher).toBeDefined();
    expect(toLauncher!.subject).toBe('【担保公司平台】已完成签署：《Lease 2026》');
    expect(toLauncher!.text).toContain('签署后的文件不随邮件发送');
    expect(toLauncher!.text).toContain('https://sign.example.test/#/signList');
    expect(toLauncher!.raw).toMatch(/<html lang=(3D)?"zh-CN"/);
    const toSigner = mailsTo('li@example.test').find((m) =>
      m.subject.startsWith('【E-Signature Platform】Completed'),
    );
    expect(toSigner).toBeDefined();
    for (const m of [toLauncher!, toSigner!]) {
      expect(m.raw).not.toMatch(/Content-Disposition: attachment/i);
      expect(m.raw).not.toMatch(/application\/pdf/i);
    }
    const sent = await t.db.select().from(messageDeliveries);
    expect(sent.filter((d) => d.channel === 'email' && d.status === 'sent').length).toBeGreaterThanOrEqual(3);
  });

  it('refused: the launcher is told by e-mail; a person without an address gets none', async () => {
    await launch('Refused deal');
    const before = mails.length;
    const room = await openByLink(t, signer.agent, signer.phone);
    ok(
      await signer.agent.call(declineFlow, { userType: 0, roomToken: room.roomToken, reason: 'wrong price' }),
      'decline',
    );
    const got = mails.slice(before);
    expect(got.find((m) => m.to.includes('zhang@example.test'))?.subject).toBe(
      '【担保公司平台】已拒签：《Refused deal》',
    );
    expect(got.find((m) => m.to.includes('li@example.test'))?.subject).toBe(
      '【E-Signature Platform】Declined: "Refused deal"',
    );
    // Removing the address stops the e-mails.
    ok(await signer.agent.call(setNoticeEmail, { userType: 0, email: '', lang: 'en' }), 'remove');
    const n = mails.length;
    await launch('No mail');
    expect(mails.slice(n).some((m) => m.to.includes('li@example.test'))).toBe(false);
  });

  it('a refused SMTP login is recorded as a failed delivery, the notice still goes in-product', async () => {
    const saved = t.deps.messenger;
    const { createMessenger } = await import('#server/messaging/create-messenger.ts');
    const config = {
      ...t.deps.config,
      mail: { url: `smtp://mailer:wrong@127.0.0.1:${port}`, from: 'E-Sign <no-reply@esign.test>' },
    };
    t.deps.messenger = createMessenger({
      config,
      db: t.db,
      log: t.deps.log,
      clock: t.clock,
      sleep: async () => {},
    });
    try {
      ok(
        await signer.agent.call(setNoticeEmail, { userType: 0, email: 'li@example.test', lang: 'en' }),
        'set',
      );
      await launch('Bad SMTP');
      const rows = await t.db.select().from(messageDeliveries);
      const last = rows.at(-1)!;
      expect(last).toMatchObject({ channel: 'email', status: 'failed', toAddr: 'li@example.test' });
      expect(last.errorCode).toMatch(/^SMTP5|EAUTH/);
      expect(last.errorMessage ?? '').not.toContain('wrong');
    } finally {
      t.deps.messenger = saved;
    }
  });
});
