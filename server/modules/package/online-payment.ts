import type { Actor } from '../../lib/actor.ts';
import { randomBytes } from 'node:crypto';
import { Code } from '#contract/codes.ts';
import { OrderStatus } from '#contract/enums.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../http/app-error.ts';
import { recordEvidence } from '../../providers/evidence.ts';
import {
  type NotifyAnswer,
  type PayChannel,
  PaymentProviderError,
  type RawNotification,
} from '../../providers/payment/types.ts';
import { dateOf } from '../../db/sql-helpers.ts';
import { paymentProviderFor } from './payment-provider.ts';
import * as q from './queries.ts';
import { accountOfSession } from './quota.ts';
import { markOrderPaid } from './service.ts';
import { P, PAY } from './texts.ts';

// Online payment of orders (PAYMENT_PROVIDER=wechat|alipay). The buyer starts a payment from the checkout
// screen; the provider's server later POSTs a signed notification, and only a notification that passes
// the provider's signature check, names an order of this platform awaiting payment with exactly its
// amount, and was not seen before, marks the order paid (markOrderPaid credits the signings).

type PaymentStart = {
  provider: string;
  kind: 'qr' | 'redirect';
  /** WeChat Native: the code_url and its QR code as an SVG data URL. */
  codeUrl: string | null;
  qrDataUrl: string | null;
  url: string | null;
};

/** startOrderPayment: the buyer's own order awaiting payment, at the configured online provider. */
export async function startPayment(
  deps: AppDeps,
  actor: Actor,
  input: { orderNo: string; channel: PayChannel; clientIp: string },
): Promise<PaymentStart> {
  const provider = paymentProviderFor(deps.config.packages);
  const now = deps.clock.now();
  await q.expireUnpaidOrders(deps.db, now);
  const row = await q.findOwnOrder(deps.db, accountOfSession(actor), input.orderNo);
  if (!row) throw new AppError(Code.NotFound, P.orderNotFound);
  if (row.status !== OrderStatus.AwaitingPayment)
    throw new AppError(Code.Refused, P.orderNotAwaiting(row.status));
  if (!provider.online || row.provider !== provider.id) throw new AppError(Code.Refused, PAY.offlineOnly);
  const kindZh = row.kind === 'group' ? '团购' : '套餐';
  let start: Awaited<ReturnType<typeof provider.online.start>>;
  try {
    start = await provider.online.start(
      {
        orderNo: row.orderNo,
        amountFen: Number(row.amountFen),
        description: `电子签章${kindZh} ${row.packageName} x${row.copies}`,
        payBy: dateOf(row.payBy),
        clientIp: input.clientIp,
        returnUrl: `${deps.config.publicUrl}/#/buy/${row.kind === 'group' ? 'checkoutGroup' : 'checkout'}?orderNo=${encodeURIComponent(row.orderNo)}`,
      },
      input.channel,
    );
  } catch (err) {
    deps.log.error(
      { orderNo: row.orderNo, provider: provider.id, err: (err as Error).message },
      'payment: could not start the payment at the provider',
    );
    throw new AppError(Code.Refused, PAY.providerUnavailable, { status: 502 });
  }
  if (start.kind === 'qr') {
    const QRCode = (await import('qrcode')).default;
    const svg = await QRCode.toString(start.codeUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return {
      provider: provider.id,
      kind: 'qr',
      codeUrl: start.codeUrl,
      qrDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
      url: null,
    };
  }
  return { provider: provider.id, kind: 'redirect', codeUrl: null, qrDataUrl: null, url: start.url };
}

type NotificationOutcome =
  | 'credited'
  | 'duplicate'
  | 'already_paid'
  | 'not_awaiting'
  | 'unknown_order'
  | 'amount_mismatch'
  | 'ignored'
  | 'rejected';

/**
 * A provider's notification: verified, then applied at most once. Answers what the provider's server
 * expects (it retries until it gets the success answer) and what happened, for the log and the tests.
 */
export async function handleNotification(
  deps: AppDeps,
  providerId: string,
  raw: RawNotification,
): Promise<{ answer: NotifyAnswer; outcome: NotificationOutcome }> {
  const provider = paymentProviderFor(deps.config.packages);
  const online = provider.online;
  if (!online || online.id !== providerId)
    return {
      answer: { status: 404, contentType: 'text/plain', body: 'not found' },
      outcome: 'rejected',
    };
  const now = deps.clock.now();
  const verified = await online.verifyNotification(raw, now);
  if (verified === null) {
    deps.log.warn(
      { provider: providerId },
      'payment: notification REFUSED (signature, time or merchant wrong)',
    );
    return { answer: online.answers.fail, outcome: 'rejected' };
  }
  if (verified === 'ignore') return { answer: online.answers.ok, outcome: 'ignored' };
  if (await q.isNotificationSeen(deps.db, providerId, verified.notifyId))
    return { answer: online.answers.ok, outcome: 'duplicate' };
  const row = await q.findOrderByNo(deps.db, verified.orderNo);
  let outcome: NotificationOutcome;
  if (!row || row.provider !== providerId) outcome = 'unknown_order';
  else if (Number(row.amountFen) !== verified.amountFen) outcome = 'amount_mismatch';
  else {
    try {
      await markOrderPaid(deps, row.orderNo, { adminUserId: null, reference: verified.tradeNo });
      await q.setProviderTradeNo(deps.db, row.id, verified.tradeNo);
      outcome = 'credited';
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const fresh = await q.findOrderByNo(deps.db, row.orderNo);
      outcome = fresh?.status === OrderStatus.Paid ? 'already_paid' : 'not_awaiting';
    }
  }
  await q.insertNotification(deps.db, {
    provider: providerId,
    notifyId: verified.notifyId,
    orderNo: verified.orderNo,
    tradeNo: verified.tradeNo,
    amountFen: verified.amountFen,
    outcome,
    now,
  });
  await recordEvidence(deps.db, {
    kind: 'payment',
    provider: providerId,
    requestId: verified.tradeNo,
    subjectType: 'order',
    subjectId: verified.orderNo,
    outcome,
    detail: `notification ${verified.notifyId}, ${verified.amountFen} fen`,
    at: now,
  });
  const level = outcome === 'credited' || outcome === 'already_paid' ? 'info' : 'error';
  deps.log[level](
    { provider: providerId, orderNo: verified.orderNo, outcome },
    outcome === 'credited'
      ? 'payment: order paid by a verified notification'
      : 'payment: verified notification did not credit (an administrator should look at it)',
  );
  // The provider stops retrying on the success answer; a mismatch is for an administrator, not a retry.
  return { answer: online.answers.ok, outcome };
}

/**
 * Before a paid online order is refunded in the books, the money goes back at the provider; a refusal
 * there leaves the order untouched. Offline orders are refunded by the administrator outside the product.
 */
export async function refundAtProvider(deps: AppDeps, orderNo: string, reason: string): Promise<void> {
  const row = await q.findOrderByNo(deps.db, orderNo);
  if (!row || row.provider === 'offline' || row.status !== OrderStatus.Paid) return;
  const provider = paymentProviderFor(deps.config.packages);
  if (!provider.online || provider.online.id !== row.provider)
    throw new AppError(Code.Refused, PAY.refundFailed);
  const refundNo = `RF${row.orderNo}${randomBytes(3).toString('hex').toUpperCase()}`;
  let refundId: string;
  try {
    refundId = await provider.online.refund({
      orderNo: row.orderNo,
      refundNo,
      amountFen: Number(row.amountFen),
      reason,
    });
  } catch (err) {
    deps.log.error(
      {
        orderNo,
        provider: row.provider,
        err: err instanceof PaymentProviderError ? err.message : String(err),
      },
      'payment: refund refused by the provider',
    );
    throw new AppError(Code.Refused, PAY.refundFailed, { status: 502 });
  }
  await q.setRefundId(deps.db, row.id, refundId);
  await recordEvidence(deps.db, {
    kind: 'refund',
    provider: row.provider,
    requestId: refundId,
    subjectType: 'order',
    subjectId: row.orderNo,
    outcome: 'accepted',
    detail: `${refundNo}, ${row.amountFen} fen`,
    at: deps.clock.now(),
  });
}

/** adminConfirmOrder is for bank transfers; an online order is paid only by its provider's notification. */
export async function requireOfflineOrder(deps: AppDeps, orderNo: string): Promise<void> {
  const row = await q.findOrderByNo(deps.db, orderNo);
  if (row && row.provider !== 'offline') throw new AppError(Code.Refused, PAY.onlineNotConfirmable);
}
