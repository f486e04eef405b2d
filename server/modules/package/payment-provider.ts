import type { PaymentNotes } from '#contract/calls/package.ts';
import { AlipayProvider } from '../../providers/payment/alipay.ts';
import type { OnlinePaymentProvider } from '../../providers/payment/types.ts';
import { WechatPayProvider } from '../../providers/payment/wechat.ts';
import type { PackageSettings } from '../../config/package.ts';

/** The part of an order a payment provider needs. */
type PayableOrder = { orderNo: string; amountFen: number; payBy: Date };

/**
 * How an order gets paid. The offline bank transfer shows the account and the order number to quote; a
 * platform administrator confirms the arrival (adminConfirmOrder / `npm run admin -- confirm`). An online
 * provider (WeChat Pay, Alipay: server/providers/payment/) is paid through startOrderPayment, and only its
 * verified notification (POST /v1/pay/notify/<provider>) calls service.markOrderPaid — the one place where
 * an order becomes paid and its signings are credited. The browser's return proves nothing.
 */
interface PaymentProvider {
  readonly id: string;
  readonly confirmsByAdministrator: boolean;
  notesFor(order: PayableOrder): PaymentNotes;
  /** The online adapter; undefined for the offline transfer. */
  readonly online?: OnlinePaymentProvider;
}

/** Offline bank transfer to the account of BANK_ACCOUNT_NAME / BANK_NAME / BANK_ACCOUNT_NO. */
export function offlineTransferProvider(settings: PackageSettings): PaymentProvider {
  return {
    id: 'offline',
    confirmsByAdministrator: true,
    notesFor: (order) => ({
      provider: 'offline',
      accountName: settings.bank.accountName,
      bankName: settings.bank.bankName,
      accountNo: settings.bank.accountNo,
      reference: order.orderNo,
      amountFen: order.amountFen,
      payBy: order.payBy.toISOString(),
      isDevelopmentDefault: settings.bank.isDevelopmentDefault,
    }),
  };
}

/** WeChat Pay or Alipay: the notes carry no bank account, the checkout screen starts the payment. */
function onlineProvider(online: OnlinePaymentProvider): PaymentProvider {
  return {
    id: online.id,
    confirmsByAdministrator: false,
    online,
    notesFor: (order) => ({
      provider: online.id,
      accountName: '',
      bankName: '',
      accountNo: '',
      reference: order.orderNo,
      amountFen: order.amountFen,
      payBy: order.payBy.toISOString(),
      isDevelopmentDefault: false,
    }),
  };
}

const cache = new WeakMap<PackageSettings, PaymentProvider>();

/** The provider PAYMENT_PROVIDER names (keys are parsed once per configuration). */
export function paymentProviderFor(settings: PackageSettings): PaymentProvider {
  let p = cache.get(settings);
  if (!p) {
    if (settings.paymentProvider === 'wechat' && settings.wechat)
      p = onlineProvider(new WechatPayProvider(settings.wechat));
    else if (settings.paymentProvider === 'alipay' && settings.alipay)
      p = onlineProvider(new AlipayProvider(settings.alipay));
    else p = offlineTransferProvider(settings);
    cache.set(settings, p);
  }
  return p;
}
