import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../deps.ts';
import { type Mailer, SmtpMailer } from '../providers/mail/smtp.ts';
import { AliyunSmsProvider } from '../providers/sms/aliyun.ts';
import type { SmsProvider } from '../providers/sms/sms-provider.ts';
import { TencentSmsProvider } from '../providers/sms/tencent.ts';
import { DeliveringMessenger } from './delivering-messenger.ts';
import { type Messenger, OutboxMessenger } from './messenger.ts';

/** The SMS gateway SMS_PROVIDER names; null for the development outbox. */
export function smsProviderFor(config: Config): SmsProvider | null {
  const g = config.smsGateway;
  if (g.provider === 'aliyun') return new AliyunSmsProvider(g);
  if (g.provider === 'tencent') return new TencentSmsProvider(g);
  return null;
}

/**
 * The app's messenger: the development outbox alone when neither a gateway nor SMTP is configured,
 * otherwise the delivering messenger over the configured providers (server/providers).
 */
export function createMessenger(opts: {
  config: Config;
  db: Db;
  log: Logger;
  clock: Clock;
  sleep?: (ms: number) => Promise<void>;
}): Messenger {
  const { config, db, log, clock } = opts;
  const outbox = new OutboxMessenger({ db, log, clock, isProduction: config.isProduction });
  const sms = smsProviderFor(config);
  const mailer: Mailer | null = config.mail
    ? new SmtpMailer({ url: config.mail.url, from: config.mail.from })
    : null;
  if (!sms && !mailer) return outbox;
  return new DeliveringMessenger({ db, log, clock, config, sms, mailer, outbox, sleep: opts.sleep });
}
