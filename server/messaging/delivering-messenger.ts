import { and, desc, eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { users } from '../db/schema/accounts.ts';
import { messageDeliveries } from '../db/schema/messages.ts';
import type { Clock } from '../lib/clock.ts';
import type { Text } from '../lib/text.ts';
import type { Mailer } from '../providers/mail/smtp.ts';
import type { SmsFailureKind, SmsProvider, SmsResult } from '../providers/sms/sms-provider.ts';
import { renderNoticeMail } from './mail-templates.ts';
import { type Messenger, type Notice, type OutboxMessenger, SmsNotSentError } from './messenger.ts';

const isPhone = (to: string) => /^\+?\d{6,15}$/.test(to);
const maskPhone = (p: string) => `${p.slice(0, 3)}****${p.slice(-4)}`;

/** What the person sees when a code could not be sent (Code.SmsNotSent), by the provider's reason. */
export function smsNotSentText(kind: SmsFailureKind, providerCode: string): Text {
  const ref = ` (${providerCode})`;
  switch (kind) {
    case 'throttled':
      return {
        zh: `该手机号接收短信过于频繁，验证码未能发送，请稍后再试${ref}`,
        en: `this phone has received too many messages; the code could not be sent, try again later${ref}`,
      };
    case 'invalid_phone':
      return {
        zh: `短信服务商不接受该手机号，验证码未能发送，请检查号码${ref}`,
        en: `the SMS provider does not accept this phone number; the code could not be sent, check the number${ref}`,
      };
    default:
      return {
        zh: `验证码未能发送，请稍后再试；平台管理员已收到通知${ref}`,
        en: `the code could not be sent, try again later; the platform administrator has been told${ref}`,
      };
  }
}

type Attempted<R> = { result: R; attempts: number };

/**
 * Sends through real providers (README "Going live"): SMS through the configured gateway (or the
 * development outbox), notices also by e-mail to people who gave an address. Each message is tried
 * again with doubling waits while the provider calls the failure temporary, and its outcome (provider,
 * message id, status, error) is recorded in message_deliveries. A code that cannot be sent is refused
 * to the person (Code.SmsNotSent); a notice that cannot be sent is only recorded. Codes, texts and
 * credentials never reach the log.
 */
export class DeliveringMessenger implements Messenger {
  readonly #db: Db;
  readonly #log: Logger;
  readonly #clock: Clock;
  readonly #config: Config;
  readonly #sms: SmsProvider | null;
  readonly #mailer: Mailer | null;
  readonly #outbox: OutboxMessenger;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(opts: {
    db: Db;
    log: Logger;
    clock: Clock;
    config: Config;
    sms: SmsProvider | null;
    mailer: Mailer | null;
    outbox: OutboxMessenger;
    sleep?: (ms: number) => Promise<void>;
  }) {
    this.#db = opts.db;
    this.#log = opts.log;
    this.#clock = opts.clock;
    this.#config = opts.config;
    this.#sms = opts.sms;
    this.#mailer = opts.mailer;
    this.#outbox = opts.outbox;
    this.#sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  get #retry() {
    const g = this.#config.smsGateway;
    return g.provider === 'outbox'
      ? { retries: 2, baseMs: 500 }
      : { retries: g.retries, baseMs: g.retryBaseMs };
  }

  async #withRetry<R>(send: () => Promise<R>, isTemporary: (r: R) => boolean): Promise<Attempted<R>> {
    const { retries, baseMs } = this.#retry;
    let attempts = 0;
    for (;;) {
      const result = await send();
      attempts += 1;
      if (!isTemporary(result) || attempts > retries) return { result, attempts };
      await this.#sleep(baseMs * 2 ** (attempts - 1));
    }
  }

  async #sendSmsTemplate(
    to: string,
    purpose: string,
    params: [string, string][],
  ): Promise<Attempted<SmsResult> | null> {
    const sms = this.#sms;
    const g = this.#config.smsGateway;
    if (!sms || g.provider === 'outbox') return null;
    const templateId = g.templates[purpose];
    if (!templateId) return null;
    const started = this.#clock.now();
    const sent = await this.#withRetry(
      () => sms.send({ phone: to, templateId, params }),
      (r) => !r.ok && r.kind === 'temporary',
    );
    const r = sent.result;
    await this.#db.insert(messageDeliveries).values({
      channel: 'sms',
      provider: sms.name,
      toAddr: to,
      purpose,
      status: r.ok ? 'sent' : 'failed',
      failureKind: r.ok ? null : r.kind,
      attempts: sent.attempts,
      messageId: r.ok ? r.messageId : null,
      requestId: r.requestId,
      errorCode: r.ok ? null : r.code,
      errorMessage: r.ok ? null : r.message,
      createdAt: started,
      finishedAt: this.#clock.now(),
    });
    const line = { to: maskPhone(to), purpose, provider: sms.name, attempts: sent.attempts };
    if (r.ok) this.#log.info({ ...line, messageId: r.messageId }, 'sms sent');
    else this.#log.warn({ ...line, kind: r.kind, error: r.code, requestId: r.requestId }, 'sms not sent');
    return sent;
  }

  async sendSms(to: string, purpose: string, text: string, code?: string): Promise<void> {
    if (!this.#sms) return this.#outbox.sendSms(to, purpose, text, code);
    const minutes = String(Math.round(this.#config.sms.codeTtlSeconds / 60));
    const sent = await this.#sendSmsTemplate(to, purpose, [
      ['code', code ?? ''],
      ['minutes', minutes],
    ]);
    if (!sent) throw new Error(`no SMS template for purpose ${purpose}`);
    if (!sent.result.ok) throw new SmsNotSentError(smsNotSentText(sent.result.kind, sent.result.code));
  }

  async notify(notice: Notice): Promise<void> {
    if (this.#sms && isPhone(notice.to)) {
      const m = notice.mail;
      await this.#sendSmsTemplate(notice.to, notice.purpose, [
        ['name', m?.who ?? ''],
        ['title', m?.flowTitle ?? ''],
        ['link', m?.link ?? ''],
      ]);
    } else {
      // The outbox: the development channel, and development addresses (the simulated bank) always.
      await this.#outbox.notify(notice);
    }
    if (this.#mailer && notice.mail && isPhone(notice.to)) await this.#mailNotice(notice);
  }

  async #mailNotice(notice: Notice): Promise<void> {
    const mailer = this.#mailer!;
    const [user] = await this.#db
      .select({ email: users.email, lang: users.emailLang, platform: users.emailPlatform })
      .from(users)
      .where(eq(users.phone, notice.to))
      .limit(1);
    if (!user?.email) return;
    const mail = renderNoticeMail(notice.mail!, user.lang ?? 'zh', user.platform);
    const started = this.#clock.now();
    const sent = await this.#withRetry(
      () => mailer.send({ to: user.email!, ...mail }),
      (r) => !r.ok && r.temporary,
    );
    const r = sent.result;
    await this.#db.insert(messageDeliveries).values({
      channel: 'email',
      provider: mailer.name,
      toAddr: user.email,
      purpose: notice.purpose,
      status: r.ok ? 'sent' : 'failed',
      failureKind: r.ok ? null : r.temporary ? 'temporary' : 'rejected',
      attempts: sent.attempts,
      messageId: r.ok ? r.messageId : null,
      requestId: null,
      errorCode: r.ok ? null : r.code,
      errorMessage: r.ok ? null : r.message,
      createdAt: started,
      finishedAt: this.#clock.now(),
    });
    if (!r.ok) this.#log.warn({ purpose: notice.purpose, error: r.code }, 'e-mail not sent');
  }
}

export type DeliveryFailure = {
  id: number;
  channel: 'sms' | 'email';
  provider: string;
  to: string;
  purpose: string;
  failureKind: string | null;
  attempts: number;
  errorCode: string | null;
  errorMessage: string | null;
  requestId: string | null;
  createdAt: string;
};

/** The latest failed deliveries, newest first (the administrator's card); addresses masked. */
export async function listDeliveryFailures(db: Db, limit: number): Promise<DeliveryFailure[]> {
  const rows = await db
    .select()
    .from(messageDeliveries)
    .where(and(eq(messageDeliveries.status, 'failed')))
    .orderBy(desc(messageDeliveries.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    provider: r.provider,
    to: r.channel === 'sms' ? maskPhone(r.toAddr) : r.toAddr.replace(/^(.).*(@.*)$/, '$1***$2'),
    purpose: r.purpose,
    failureKind: r.failureKind,
    attempts: r.attempts,
    errorCode: r.errorCode,
    errorMessage: r.errorMessage,
    requestId: r.requestId,
    createdAt: r.createdAt.toISOString(),
  }));
}
