import type { AlipaySdk } from 'alipay-sdk';
import { type AlipaySettings, asPem } from '../../config/payment.ts';
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

// Alipay through its official Node SDK (alipay-sdk): computer website payment (alipay.trade.page.pay) on a
// PC, mobile website payment (alipay.trade.wap.pay) on a phone, refunds (alipay.trade.refund, whose signed
// answer the SDK verifies with Alipay's public key), and asynchronous notifications verified with
// Alipay's public key (RSA2 = SHA256withRSA over the sorted parameters without sign and sign_type).

const yuan = (fen: number) => (fen / 100).toFixed(2);
/** "12.30" -> 1230 (whole fen; anything else -> NaN). */
const fenOf = (amount: string | undefined) =>
  amount && /^\d+(\.\d{1,2})?$/.test(amount) ? Math.round(Number(amount) * 100) : Number.NaN;
/** yyyy-MM-dd HH:mm:ss in Beijing time, Alipay's time_expire. */
const beijing = (d: Date) =>
  new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');

export class AlipayProvider implements OnlinePaymentProvider {
  readonly id = 'alipay' as const;
  readonly answers: { ok: NotifyAnswer; fail: NotifyAnswer } = {
    ok: { status: 200, contentType: 'text/plain', body: 'success' },
    fail: { status: 400, contentType: 'text/plain', body: 'fail' },
  };
  readonly #s: AlipaySettings;
  #sdk: Promise<AlipaySdk> | undefined;

  constructor(settings: AlipaySettings) {
    this.#s = settings;
  }

  /** The SDK, loaded on first use (it stays out of the server's start-up: server/README.md, memory). */
  #client(): Promise<AlipaySdk> {
    this.#sdk ??= import('alipay-sdk').then(({ AlipaySdk }) => {
      const privateKey = asPem(this.#s.privateKeyPem, 'PRIVATE KEY');
      return new AlipaySdk({
        appId: this.#s.appId,
        privateKey,
        keyType: privateKey.includes('RSA PRIVATE KEY') ? 'PKCS1' : 'PKCS8',
        alipayPublicKey: asPem(this.#s.alipayPublicKeyPem, 'PUBLIC KEY'),
        signType: 'RSA2',
        gateway: this.#s.gateway,
        timeout: 15_000,
      });
    });
    return this.#sdk;
  }

  async start(order: OrderToPay, channel: PayChannel): Promise<PayStart> {
    const method = channel === 'pc' ? 'alipay.trade.page.pay' : 'alipay.trade.wap.pay';
    const sdk = await this.#client();
    const url = sdk.pageExecute(method, 'GET', {
      bizContent: {
        out_trade_no: order.orderNo,
        total_amount: yuan(order.amountFen),
        subject: order.description.slice(0, 256),
        product_code: channel === 'pc' ? 'FAST_INSTANT_TRADE_PAY' : 'QUICK_WAP_WAY',
        time_expire: beijing(order.payBy),
      },
      notifyUrl: this.#s.notifyUrl,
      returnUrl: order.returnUrl,
    });
    return { kind: 'redirect', url };
  }

  async verifyNotification(n: RawNotification): Promise<VerifiedPayment | 'ignore' | null> {
    const params = Object.fromEntries(new URLSearchParams(n.body.toString('utf8')));
    if (params.sign_type !== 'RSA2') return null;
    let authentic = false;
    try {
      authentic = (await this.#client()).checkNotifySignV2(params);
    } catch {
      authentic = false;
    }
    if (!authentic || params.app_id !== this.#s.appId) return null;
    if (params.trade_status !== 'TRADE_SUCCESS' && params.trade_status !== 'TRADE_FINISHED') return 'ignore';
    const amountFen = fenOf(params.total_amount);
    if (!params.out_trade_no || !params.trade_no || !params.notify_id || !Number.isFinite(amountFen))
      return null;
    return {
      orderNo: params.out_trade_no,
      amountFen,
      tradeNo: params.trade_no,
      notifyId: params.notify_id,
    };
  }

  async refund(r: { orderNo: string; refundNo: string; amountFen: number; reason: string }): Promise<string> {
    let answer: Record<string, unknown>;
    try {
      answer = await (await this.#client()).exec(
        'alipay.trade.refund',
        {
          bizContent: {
            out_trade_no: r.orderNo,
            refund_amount: yuan(r.amountFen),
            out_request_no: r.refundNo,
            refund_reason: r.reason.slice(0, 256),
          },
        },
        { validateSign: true },
      );
    } catch (err) {
      throw new PaymentProviderError(`Alipay refund failed: ${(err as Error).message.slice(0, 200)}`);
    }
    if (answer.code !== '10000')
      throw new PaymentProviderError(`Alipay refund not accepted (${String(answer.subCode ?? answer.code)})`);
    return String(answer.tradeNo ?? r.refundNo);
  }
}
