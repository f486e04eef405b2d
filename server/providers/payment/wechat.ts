import {
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  createSign,
  createVerify,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import type { WechatPaySettings } from '../../config/payment.ts';
import {
  type NotifyAnswer,
  type OnlinePaymentProvider,
  type OrderToPay,
  type PayChannel,
  PaymentProviderError,
  type PayStart,
  type RawNotification,
  type VerifiedPayment,
} from './types.ts';

// WeChat Pay API v3 (pay.weixin.qq.com/doc/v3/merchant), signed by hand with node:crypto exactly as the
// documentation specifies (no maintained Node SDK lets the API host be replaced by an http:// stand-in):
//  - every request carries `Authorization: WECHATPAY2-SHA256-RSA2048 mchid=..,nonce_str=..,signature=..,
//    timestamp=..,serial_no=..`, the signature being RSA-SHA256 (PKCS#1 v1.5) with the merchant's API key
//    over "METHOD\nPATH?QUERY\nTIMESTAMP\nNONCE\nBODY\n";
//  - answers and notifications are verified with the WeChat Pay platform certificate (or WeChat Pay public
//    key) over "TIMESTAMP\nNONCE\nBODY\n" from the Wechatpay-Timestamp/-Nonce/-Signature/-Serial headers;
//  - a notification's `resource` is AEAD_AES_256_GCM under the APIv3 key (nonce, associated_data, and the
//    ciphertext whose last 16 bytes are the tag).

export { PAY_NOTIFY_PATH } from '../../config/payment.ts';

/** Notifications older (or newer) than this are refused: WeChat Pay's documented replay window. */
const WECHAT_NOTIFY_WINDOW_MS = 5 * 60 * 1000;

const header = (h: RawNotification['headers'], name: string): string | undefined => {
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** The Authorization header value for one request (exported for the stand-in's tests). */
function wechatAuthorization(
  s: Pick<WechatPaySettings, 'mchId' | 'merchantSerialNo'>,
  key: KeyObject,
  req: { method: string; pathAndQuery: string; body: string; timestamp: number; nonce: string },
): string {
  const message = `${req.method}\n${req.pathAndQuery}\n${req.timestamp}\n${req.nonce}\n${req.body}\n`;
  const signature = createSign('RSA-SHA256').update(message).sign(key, 'base64');
  return (
    `WECHATPAY2-SHA256-RSA2048 mchid="${s.mchId}",nonce_str="${req.nonce}",signature="${signature}",` +
    `timestamp="${req.timestamp}",serial_no="${s.merchantSerialNo}"`
  );
}

/** True when `signature` (base64) is WeChat Pay's signature over "timestamp\nnonce\nbody\n". */
function wechatSignatureValid(
  publicKey: KeyObject,
  timestamp: string,
  nonce: string,
  body: string,
  signature: string,
): boolean {
  try {
    return createVerify('RSA-SHA256')
      .update(`${timestamp}\n${nonce}\n${body}\n`)
      .verify(publicKey, signature, 'base64');
  } catch {
    return false;
  }
}

/** AEAD_AES_256_GCM decryption of a notification resource. */
function wechatDecryptResource(
  apiV3Key: string,
  r: { ciphertext: string; nonce: string; associated_data?: string },
): string {
  const data = Buffer.from(r.ciphertext, 'base64');
  if (data.length < 17) throw new PaymentProviderError('resource ciphertext too short');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    Buffer.from(apiV3Key, 'utf8'),
    Buffer.from(r.nonce, 'utf8'),
  );
  decipher.setAAD(Buffer.from(r.associated_data ?? '', 'utf8'));
  decipher.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}

/** RFC 3339 with +08:00, as WeChat Pay's time_expire wants it. */
const beijingTime = (d: Date) => `${new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;

export class WechatPayProvider implements OnlinePaymentProvider {
  readonly id = 'wechat' as const;
  readonly answers: { ok: NotifyAnswer; fail: NotifyAnswer } = {
    ok: { status: 200, contentType: 'application/json', body: '{"code":"SUCCESS","message":"OK"}' },
    fail: { status: 400, contentType: 'application/json', body: '{"code":"FAIL","message":"refused"}' },
  };
  readonly #s: WechatPaySettings;
  readonly #key: KeyObject;
  readonly #platformKey: KeyObject;

  constructor(settings: WechatPaySettings) {
    this.#s = settings;
    this.#key = createPrivateKey(settings.privateKeyPem);
    this.#platformKey = createPublicKey(settings.platformKeyPem);
  }

  /** One signed API request; the answer's signature is verified before it is believed. */
  async #call<T>(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<T> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const timestamp = Math.floor(Date.now() / 1000);
    const nonce = randomBytes(16).toString('hex');
    const authorization = wechatAuthorization(this.#s, this.#key, {
      method,
      pathAndQuery: path,
      body,
      timestamp,
      nonce,
    });
    let res: Response;
    try {
      res = await fetch(`${this.#s.endpoint}${path}`, {
        method,
        headers: {
          authorization,
          accept: 'application/json',
          'content-type': 'application/json',
          'user-agent': 'esign-platform wechatpay-v3',
        },
        body: method === 'GET' ? undefined : body,
        signal: AbortSignal.timeout(15_000),
      });
    } catch (err) {
      throw new PaymentProviderError(`WeChat Pay unreachable: ${(err as Error).message}`);
    }
    const text = await res.text();
    const h = Object.fromEntries(res.headers.entries());
    const ok = wechatSignatureValid(
      this.#platformKey,
      h['wechatpay-timestamp'] ?? '',
      h['wechatpay-nonce'] ?? '',
      text,
      h['wechatpay-signature'] ?? '',
    );
    if (!ok)
      throw new PaymentProviderError(
        `WeChat Pay answer to ${path} has no valid signature (HTTP ${res.status})`,
      );
    const data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!res.ok)
      throw new PaymentProviderError(
        `WeChat Pay ${path}: HTTP ${res.status} ${String(data.code ?? '')} ${String(data.message ?? '')}`,
      );
    return data as T;
  }

  async start(order: OrderToPay, channel: PayChannel): Promise<PayStart> {
    const common = {
      appid: this.#s.appId,
      mchid: this.#s.mchId,
      description: order.description.slice(0, 127),
      out_trade_no: order.orderNo,
      time_expire: beijingTime(order.payBy),
      notify_url: this.#s.notifyUrl,
      amount: { total: order.amountFen, currency: 'CNY' },
    };
    if (channel === 'pc') {
      const r = await this.#call<{ code_url?: string }>('POST', '/v3/pay/transactions/native', common);
      if (!r.code_url) throw new PaymentProviderError('WeChat Pay answered no code_url');
      return { kind: 'qr', codeUrl: r.code_url };
    }
    const r = await this.#call<{ h5_url?: string }>('POST', '/v3/pay/transactions/h5', {
      ...common,
      scene_info: { payer_client_ip: order.clientIp, h5_info: { type: 'Wap' } },
    });
    if (!r.h5_url) throw new PaymentProviderError('WeChat Pay answered no h5_url');
    // After paying, WeChat sends the phone to redirect_url (the checkout screen), which asks the server.
    const url = new URL(r.h5_url);
    url.searchParams.set('redirect_url', order.returnUrl);
    return { kind: 'redirect', url: url.toString() };
  }

  async verifyNotification(n: RawNotification, now: Date): Promise<VerifiedPayment | 'ignore' | null> {
    const timestamp = header(n.headers, 'wechatpay-timestamp') ?? '';
    const nonce = header(n.headers, 'wechatpay-nonce') ?? '';
    const signature = header(n.headers, 'wechatpay-signature') ?? '';
    const serial = header(n.headers, 'wechatpay-serial') ?? '';
    if (!/^\d{1,12}$/.test(timestamp) || !nonce || !signature) return null;
    if (serial !== this.#s.platformSerial) return null;
    if (Math.abs(now.getTime() - Number(timestamp) * 1000) > WECHAT_NOTIFY_WINDOW_MS) return null;
    const body = n.body.toString('utf8');
    if (!wechatSignatureValid(this.#platformKey, timestamp, nonce, body, signature)) return null;
    let notice: {
      id?: string;
      event_type?: string;
      resource?: { algorithm?: string; ciphertext: string; nonce: string; associated_data?: string };
    };
    try {
      notice = JSON.parse(body);
    } catch {
      return null;
    }
    if (!notice.id || !notice.resource || notice.resource.algorithm !== 'AEAD_AES_256_GCM') return null;
    let tx: {
      appid?: string;
      mchid?: string;
      out_trade_no?: string;
      transaction_id?: string;
      trade_state?: string;
      amount?: { total?: number; currency?: string };
    };
    try {
      tx = JSON.parse(wechatDecryptResource(this.#s.apiV3Key, notice.resource));
    } catch {
      return null;
    }
    if (tx.mchid !== this.#s.mchId || tx.appid !== this.#s.appId) return null;
    if (notice.event_type !== 'TRANSACTION.SUCCESS' || tx.trade_state !== 'SUCCESS') return 'ignore';
    if (!tx.out_trade_no || !tx.transaction_id || typeof tx.amount?.total !== 'number') return null;
    return {
      orderNo: tx.out_trade_no,
      amountFen: tx.amount.total,
      tradeNo: tx.transaction_id,
      notifyId: notice.id,
    };
  }

  async refund(r: { orderNo: string; refundNo: string; amountFen: number; reason: string }): Promise<string> {
    const answer = await this.#call<{ refund_id?: string; status?: string }>(
      'POST',
      '/v3/refund/domestic/refunds',
      {
        out_trade_no: r.orderNo,
        out_refund_no: r.refundNo,
        reason: r.reason.slice(0, 80),
        amount: { refund: r.amountFen, total: r.amountFen, currency: 'CNY' },
      },
    );
    if (!answer.refund_id || answer.status === 'ABNORMAL' || answer.status === 'CLOSED')
      throw new PaymentProviderError(`WeChat Pay refund not accepted (${answer.status ?? 'no status'})`);
    return answer.refund_id;
  }
}
