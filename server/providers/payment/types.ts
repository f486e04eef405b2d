// What an online payment provider does for an order (server/modules/package uses it; adapters beside this).

/** The device the buyer pays on: a PC gets a QR code (or the provider's page), a phone is sent away. */
export type PayChannel = 'pc' | 'h5';

/** An order as a provider sees it. */
export type OrderToPay = {
  orderNo: string;
  amountFen: number;
  description: string;
  payBy: Date;
  /** The buyer's address (WeChat H5 requires it). */
  clientIp: string;
  /** Where the provider sends the browser back (the checkout screen); never proves a payment. */
  returnUrl: string;
};

/** How the browser pays: show a QR code of `codeUrl`, or open `url`. */
export type PayStart = { kind: 'qr'; codeUrl: string } | { kind: 'redirect'; url: string };

/** A notification whose signature was verified: the provider says this order was paid. */
export type VerifiedPayment = {
  orderNo: string;
  amountFen: number;
  /** The provider's transaction number (kept as the payment reference). */
  tradeNo: string;
  /** Unique per notification at the provider: a second delivery of the same one changes nothing. */
  notifyId: string;
};

/** A notification, as received: headers and the exact body bytes (signatures cover the bytes). */
export type RawNotification = { headers: Record<string, string | string[] | undefined>; body: Buffer };

/** What the provider's server expects back. */
export type NotifyAnswer = { status: number; contentType: string; body: string };

export interface OnlinePaymentProvider {
  readonly id: 'wechat' | 'alipay';
  /** Creates the provider's payment for the order. */
  start(order: OrderToPay, channel: PayChannel): Promise<PayStart>;
  /**
   * Verifies a notification's signature (and decrypts it where the provider encrypts): the payment it
   * reports, 'ignore' for an authentic notice that reports no payment, or null when it is not authentic.
   */
  verifyNotification(n: RawNotification, now: Date): Promise<VerifiedPayment | 'ignore' | null>;
  /** Gives back the whole amount of a paid order; answers the provider's refund id. */
  refund(r: { orderNo: string; refundNo: string; amountFen: number; reason: string }): Promise<string>;
  readonly answers: { ok: NotifyAnswer; fail: NotifyAnswer };
}

export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
}
