import { and, desc, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { users } from '../db/schema/accounts.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { messageDeliveries } from '../db/schema/messages.ts';
import type { Clock } from '../lib/clock.ts';
import type { Text } from '../lib/text.ts';
import type { MailResult, MailToSend, Mailer } from '../providers/mail/smtp.ts';
import type { SmsFailureKind, SmsProvider, SmsResult } from '../providers/sms/sms-provider.ts';
import { renderNoticeMail } from './mail-templates.ts';
import { type Messenger, type Notice, type OutboxMessenger, SmsNotSentError } from './messenger.ts';

const isPhone = (to: string) => /^\+?\d{6,15}$/.test(to);
const maskPhone = (p: string) => `${p.slice(0, 3)}****${p.slice(-4)}`;

/** What the person sees when a code could not be sent (Code.SmsNotSent), by the provider's reason. */
function smsNotSentText(kind: SmsFailureKind, providerCode: string): Text {
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

/** The job that delivers a failed notice again (its handler: the messaging module, `redeliver`). */
export const REDELIVER_JOB = 'messaging.redeliver';
/** The first redelivery waits this long; then pg-boss doubles its wait after each failure. */
const REDELIVER_FIRST_DELAY_MS = 60_000;

/** A notice whose SMS or e-mail failed for a reason that may pass: delivered again by a job. */
export type Redelivery = { deliveryId: number; channel: 'sms' | 'email'; notice: Notice };

/** Failures worth trying again later: the provider's trouble or its per-phone limit. */
const isSmsRetriable = (r: SmsResult) => !r.ok && (r.kind === 'temporary' || r.kind === 'throttled');

/** The SMS template variables of a notice. */
const noticeParams = (notice: Notice): [string, string][] => [
  ['name', (notice.mail ?? notice.sms)?.who ?? ''],
  ['title', (notice.mail ?? notice.sms)?.flowTitle ?? ''],
  ['link', (notice.mail ?? notice.sms)?.link ?? ''],
  // Only the "deadline approaching" notice has a fourth variable (its template takes it last).
  ...(notice.mail?.deadline ? [['deadline', notice.mail.deadline] as [string, string]] : []),
];

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
  readonly #jobs: JobQueue | null;

  constructor(opts: {
    db: Db;
    log: Logger;
    clock: Clock;
    config: Config;
    sms: SmsProvider | null;
    mailer: Mailer | null;
    outbox: OutboxMessenger;
    sleep?: (ms: number) => Promise<void>;
    /** Where a failed notice goes to be delivered again later; without it, it is only recorded. */
    jobs?: JobQueue;
  }) {
    this.#db = opts.db;
    this.#log = opts.log;
    this.#clock = opts.clock;
    this.#config = opts.config;
    this.#sms = opts.sms;
    this.#mailer = opts.mailer;
    this.#outbox = opts.outbox;
    this.#sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.#jobs = opts.jobs ?? null;
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
  ): Promise<(Attempted<SmsResult> & { deliveryId: number }) | null> {
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
    const [row] = await this.#db
      .insert(messageDeliveries)
      .values({
        channel: 'sms',
        provider: sms.name,
        toAddr: to,
        purpose,
        ...smsOutcome(r),
        attempts: sent.attempts,
        createdAt: started,
        finishedAt: this.#clock.now(),
      })
      .returning({ id: messageDeliveries.id });
    this.#logSms(to, purpose, sent.attempts, r);
    return { ...sent, deliveryId: row.id };
  }

  #logSms(to: string, purpose: string, attempts: number, r: SmsResult) {
    const line = { to: maskPhone(to), purpose, provider: this.#sms?.name, attempts };
    if (r.ok) this.#log.info({ ...line, messageId: r.messageId }, 'sms sent');
    else this.#log.warn({ ...line, kind: r.kind, error: r.code, requestId: r.requestId }, 'sms not sent');
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
      const sent = await this.#sendSmsTemplate(notice.to, notice.purpose, noticeParams(notice));
      if (sent && isSmsRetriable(sent.result))
        await this.#later({ deliveryId: sent.deliveryId, channel: 'sms', notice });
    } else {
      // The outbox: the development channel, and development addresses (the simulated bank) always.
      await this.#outbox.notify(notice);
    }
    if (this.#mailer && notice.mail && isPhone(notice.to)) {
      const sent = await this.#mailNotice(notice);
      if (sent && !sent.result.ok && sent.result.temporary)
        await this.#later({ deliveryId: sent.deliveryId, channel: 'email', notice });
    }
  }

  /** Hands a failed notice to the job system; the failure stays recorded whatever happens here. */
  async #later(r: Redelivery): Promise<void> {
    if (!this.#jobs) return;
    try {
      await this.#jobs.send(REDELIVER_JOB, r, {
        startAfter: new Date(this.#clock.now().getTime() + REDELIVER_FIRST_DELAY_MS),
      });
    } catch (err) {
      this.#log.error(
        { err, purpose: r.notice.purpose, channel: r.channel },
        'a failed notice could not be queued',
      );
    }
  }

  /**
   * One more attempt at a failed notice (the redelivery job): its delivery row gets the outcome and one
   * more attempt. Throws while the failure may still pass, so the job system tries again later.
   */
  async redeliver(r: Redelivery): Promise<void> {
    let outcome: Outcome;
    let isRetriable: boolean;
    if (r.channel === 'sms') {
      const sms = this.#sms;
      const g = this.#config.smsGateway;
      const templateId = g.provider === 'outbox' ? undefined : g.templates[r.notice.purpose];
      if (!sms || !templateId) return; // the gateway or its template is gone: nothing to send with
      const res = await sms.send({ phone: r.notice.to, templateId, params: noticeParams(r.notice) });
      this.#logSms(r.notice.to, r.notice.purpose, 1, res);
      outcome = smsOutcome(res);
      isRetriable = isSmsRetriable(res);
    } else {
      const mail = await this.#noticeMail(r.notice);
      if (!mail) return; // no mailer any more, or the person removed their address
      const res = await this.#mailer!.send(mail);
      outcome = mailOutcome(res);
      isRetriable = !res.ok && res.temporary;
      if (!res.ok) this.#log.warn({ purpose: r.notice.purpose, error: res.code }, 'e-mail not sent');
    }
    await this.#db
      .update(messageDeliveries)
      .set({ ...outcome, attempts: sql`${messageDeliveries.attempts} + 1`, finishedAt: this.#clock.now() })
      .where(eq(messageDeliveries.id, r.deliveryId));
    if (isRetriable)
      throw new Error(`${r.channel} notice ${r.notice.purpose} not delivered yet (${outcome.errorCode})`);
  }

  /** The e-mail of a notice to the person with that phone, or null when they gave no address. */
  async #noticeMail(notice: Notice): Promise<(MailToSend & { to: string }) | null> {
    if (!this.#mailer || !notice.mail) return null;
    const [user] = await this.#db
      .select({ email: users.email, lang: users.emailLang, platform: users.emailPlatform })
      .from(users)
      .where(eq(users.phone, notice.to))
      .limit(1);
    if (!user?.email) return null;
    return { to: user.email, ...renderNoticeMail(notice.mail, user.lang ?? 'zh', user.platform) };
  }

  async #mailNotice(notice: Notice): Promise<(Attempted<MailResult> & { deliveryId: number }) | null> {
    const mailer = this.#mailer!;
    const mail = await this.#noticeMail(notice);
    if (!mail) return null;
    const started = this.#clock.now();
    const sent = await this.#withRetry(
      () => mailer.send(mail),
      (r) => !r.ok && r.temporary,
    );
    const r = sent.result;
    const [row] = await this.#db
      .insert(messageDeliveries)
      .values({
        channel: 'email',
        provider: mailer.name,
        toAddr: mail.to,
        purpose: notice.purpose,
        ...mailOutcome(r),
        attempts: sent.attempts,
        createdAt: started,
        finishedAt: this.#clock.now(),
      })
      .returning({ id: messageDeliveries.id });
    if (!r.ok) this.#log.warn({ purpose: notice.purpose, error: r.code }, 'e-mail not sent');
    return { ...sent, deliveryId: row.id };
  }
}

type Outcome = {
  status: 'sent' | 'failed';
  failureKind: string | null;
  messageId: string | null;
  requestId: string | null;
  errorCode: string | null;
  errorMessage: string | null;
};

/** A delivery row's outcome columns for an SMS result. */
function smsOutcome(r: SmsResult): Outcome {
  return {
    status: r.ok ? ('sent' as const) : ('failed' as const),
    failureKind: r.ok ? null : r.kind,
    messageId: r.ok ? r.messageId : null,
    requestId: r.requestId,
    errorCode: r.ok ? null : r.code,
    errorMessage: r.ok ? null : r.message,
  };
}

/** A delivery row's outcome columns for an e-mail result. */
function mailOutcome(r: MailResult): Outcome {
  return {
    status: r.ok ? ('sent' as const) : ('failed' as const),
    failureKind: r.ok ? null : r.temporary ? 'temporary' : 'rejected',
    messageId: r.ok ? r.messageId : null,
    requestId: null,
    errorCode: r.ok ? null : r.code,
    errorMessage: r.ok ? null : r.message,
  };
}

type DeliveryFailure = {
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
