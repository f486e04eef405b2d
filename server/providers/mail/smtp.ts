import nodemailer, { type Transporter } from 'nodemailer';

export type MailToSend = { to: string; subject: string; text: string; html: string };
export type MailResult =
  | { ok: true; messageId: string }
  | { ok: false; temporary: boolean; code: string; message: string };

/** Sends e-mail (server/providers/mail/<provider>.ts); only SMTP so far. */
export interface Mailer {
  readonly name: string;
  send(mail: MailToSend): Promise<MailResult>;
  close(): void;
}

/**
 * SMTP through nodemailer: SMTP_URL (smtp://user:pass@host:587 with STARTTLS when offered, or
 * smtps://user:pass@host:465), MAIL_FROM the sender ("e-Sign <no-reply@example.com>").
 */
export class SmtpMailer implements Mailer {
  readonly name = 'smtp';
  readonly #transport: Transporter;
  readonly #from: string;

  constructor(opts: { url: string; from: string; timeoutMs?: number }) {
    const timeout = opts.timeoutMs ?? 10_000;
    const url = new URL(opts.url);
    url.searchParams.set('connectionTimeout', String(timeout));
    url.searchParams.set('greetingTimeout', String(timeout));
    url.searchParams.set('socketTimeout', String(timeout));
    this.#transport = nodemailer.createTransport(url.toString());
    this.#from = opts.from;
  }

  async send(mail: MailToSend): Promise<MailResult> {
    try {
      const info = await this.#transport.sendMail({ from: this.#from, ...mail });
      return { ok: true, messageId: info.messageId };
    } catch (err) {
      const e = err as { responseCode?: number; code?: string; message?: string };
      // SMTP 4xx answers and connection failures are temporary; 5xx answers are final.
      const temporary = e.responseCode === undefined || (e.responseCode >= 400 && e.responseCode < 500);
      return {
        ok: false,
        temporary,
        code: e.responseCode ? `SMTP${e.responseCode}` : (e.code ?? 'ESEND'),
        // Server answers may echo the envelope, never credentials; keep it short all the same.
        message: (e.message ?? '').slice(0, 300),
      };
    }
  }

  close(): void {
    this.#transport.close();
  }
}
