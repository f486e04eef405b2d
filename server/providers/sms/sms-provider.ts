/**
 * An SMS gateway (server/providers/sms/<provider>.ts). The development outbox is not one of these: it is
 * the OutboxMessenger (server/messaging/messenger.ts), refused in production.
 */
export interface SmsProvider {
  readonly name: 'aliyun' | 'tencent';
  /** One SendSms request for one phone (11-digit mainland number; the adapter formats it). */
  send(message: SmsToSend): Promise<SmsResult>;
}

export type SmsToSend = {
  phone: string;
  templateId: string;
  /** Named template variables, in the order a positional template (Tencent) takes them. */
  params: [name: string, value: string][];
};

/**
 * What became of a send. `temporary` failures are retried with backoff; the others are final:
 * `throttled` (the provider's per-phone limit), `invalid_phone`, `config` (template, signature, keys,
 * balance: an administrator must act) and `rejected` (anything else the provider refused).
 */
export type SmsResult =
  | { ok: true; messageId: string; requestId: string | null }
  | {
      ok: false;
      kind: 'temporary' | 'throttled' | 'invalid_phone' | 'config' | 'rejected';
      code: string;
      message: string;
      requestId: string | null;
    };
export type SmsFailureKind = Extract<SmsResult, { ok: false }>['kind'];

export type { SmsSettings } from '../../config/sms.ts';
