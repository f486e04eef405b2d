import { desc, eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.ts';
import type { Db } from '../db/database.ts';
import type { Text } from '../lib/text.ts';
import { outbox } from '../db/schema/messages.ts';
import type { NoticeMail } from './mail-templates.ts';

/**
 * A notice to a person by phone. `mail` (flow notices) carries what its SMS template and its e-mail need;
 * without it the notice is only texted (or written to the outbox).
 */
export type Notice = {
  to: string;
  userId?: string;
  purpose: string;
  text: string;
  mail?: NoticeMail;
  /** The SMS template's variables of a notice that is not e-mailed (e.g. a company invitation). */
  sms?: { who: string; flowTitle: string; link: string };
};

/** The one way the product sends messages to people: SMS codes and notices. */
/**
 * A code the gateway did not send (after its retries): `text` tells the person why, by the provider's
 * reason. The module that asked for the SMS turns it into its refusal (Code.SmsNotSent).
 */
export class SmsNotSentError extends Error {
  readonly text: Text;
  constructor(text: Text) {
    super(text.en);
    this.name = 'SmsNotSentError';
    this.text = text;
  }
}

export interface Messenger {
  /**
   * Sends an SMS; `code` is the one-time code it carries, kept apart so logs can leave it out. Throws
   * SmsNotSentError when a real gateway did not send it.
   */
  sendSms(to: string, purpose: string, text: string, code?: string): Promise<void>;
  /** A notice to a person: SMS (or the outbox), and e-mail when the person gave an address. */
  notify(notice: Notice): Promise<void>;
  /**
   * One more attempt at a notice whose delivery failed (the messaging.redeliver job, see
   * delivering-messenger.ts); throws while the failure may still pass. Only real providers fail so.
   */
  redeliver?(r: { deliveryId: number; channel: 'sms' | 'email'; notice: Notice }): Promise<void>;
}

type OutboxMessage = {
  id: number;
  channel: 'sms' | 'notice';
  to: string;
  purpose: string;
  text: string;
  code: string | null;
  createdAt: string;
};

/**
 * Default sender: writes every message to the outbox table and the log. No gateway is configured, so
 * the outbox is where development and tests read codes (GET /v1/dev/outbox). In production the log
 * line never carries the code.
 */
export class OutboxMessenger implements Messenger {
  private readonly db: Db;
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly isProduction: boolean;

  constructor(opts: { db: Db; log: Logger; clock: Clock; isProduction: boolean }) {
    this.db = opts.db;
    this.log = opts.log;
    this.clock = opts.clock;
    this.isProduction = opts.isProduction;
  }

  async sendSms(to: string, purpose: string, text: string, code?: string): Promise<void> {
    await this.db
      .insert(outbox)
      .values({ channel: 'sms', toAddr: to, purpose, text, code: code ?? null, createdAt: this.clock.now() });
    const masked = `${to.slice(0, 3)}****${to.slice(-4)}`;
    if (this.isProduction) this.log.info({ to: masked, purpose }, 'sms queued in outbox');
    else this.log.info({ to, purpose, code }, 'sms queued in outbox (development: code shown)');
  }

  async notify(notice: Notice): Promise<void> {
    await this.db.insert(outbox).values({
      channel: 'notice',
      toAddr: notice.to,
      userId: notice.userId ?? null,
      purpose: notice.purpose,
      text: notice.text,
      createdAt: this.clock.now(),
    });
    this.log.info({ purpose: notice.purpose }, 'notice queued in outbox');
  }
}

/** Latest messages first; optionally only those to one address. */
export async function listOutbox(
  db: Db,
  opts: { to?: string; limit?: number } = {},
): Promise<OutboxMessage[]> {
  const rows = await db
    .select()
    .from(outbox)
    .where(opts.to ? eq(outbox.toAddr, opts.to) : undefined)
    .orderBy(desc(outbox.id))
    .limit(opts.limit ?? 50);
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    to: r.toAddr,
    purpose: r.purpose,
    text: r.text,
    code: r.code,
    createdAt: r.createdAt.toISOString(),
  }));
}
