import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Clock } from '../lib/clock.ts';
import type { Mailer, MailResult, MailToSend } from '../providers/mail/smtp.ts';
import type { SmsProvider, SmsResult, SmsToSend } from '../providers/sms/sms-provider.ts';
import { DeliveringMessenger } from './delivering-messenger.ts';
import { type Messenger, OutboxMessenger } from './messenger.ts';

// The provider SDKs (and nodemailer) are large and only needed once a message goes out: they load on
// first use, which keeps them out of the start-up import graph (server/README.md, memory).

/** The SMS gateway SMS_PROVIDER names, loaded on its first message; null for the development outbox. */
function smsProviderFor(config: Config): SmsProvider | null {
  const g = config.smsGateway;
  if (g.provider === 'outbox') return null;
  let loaded: Promise<SmsProvider> | null = null;
  const load = async (): Promise<SmsProvider> => {
    if (g.provider === 'aliyun') return new (await import('../providers/sms/aliyun.ts')).AliyunSmsProvider(g);
    return new (await import('../providers/sms/tencent.ts')).TencentSmsProvider(g);
  };
  return {
    name: g.provider,
    async send(m: SmsToSend): Promise<SmsResult> {
      loaded ??= load();
      return (await loaded).send(m);
    },
  };
}

function mailerFor(config: Config): Mailer | null {
  const mail = config.mail;
  if (!mail) return null;
  let loaded: Promise<Mailer> | null = null;
  return {
    name: 'smtp',
    async send(m: MailToSend): Promise<MailResult> {
      loaded ??= import('../providers/mail/smtp.ts').then((x) => new x.SmtpMailer(mail));
      return (await loaded).send(m);
    },
    close() {
      void loaded?.then((m) => m.close());
    },
  };
}

/**
 * The app's messenger: the development outbox alone when neither a gateway nor SMTP is configured,
 * otherwise the delivering messenger over the configured providers (server/providers), which hands failed
 * notices to `jobs` for later attempts.
 */
export function createMessenger(opts: {
  config: Config;
  db: Db;
  log: Logger;
  clock: Clock;
  sleep?: (ms: number) => Promise<void>;
  /** The job system: a notice that failed for a reason that may pass is delivered again by a job. */
  jobs?: JobQueue;
}): Messenger {
  const { config, db, log, clock } = opts;
  const outbox = new OutboxMessenger({ db, log, clock, isProduction: config.isProduction });
  const sms = smsProviderFor(config);
  const mailer = mailerFor(config);
  if (!sms && !mailer) return outbox;
  return new DeliveringMessenger({
    db,
    log,
    clock,
    config,
    sms,
    mailer,
    outbox,
    sleep: opts.sleep,
    jobs: opts.jobs,
  });
}
