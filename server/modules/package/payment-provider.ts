import type { PaymentNotes } from '#contract/calls/package.ts';
import type { PackageSettings } from './package-config.ts';

/** The part of an order a payment provider needs. */
export type PayableOrder = { orderNo: string; amountFen: number; payBy: Date };

/**
 * How an order gets paid. The offline bank transfer shows the account and the order number to quote; a
 * platform administrator confirms the arrival (adminConfirmOrder / `npm run admin -- confirm`). An online
 * provider would implement the same interface: `notesFor` returns where to pay (e.g. a pay URL in
 * `accountNo`), `confirmsByAdministrator` is false, and its callback route calls service.markOrderPaid —
 * the one place where an order becomes paid and its signings are credited.
 */
export interface PaymentProvider {
  readonly id: string;
  readonly confirmsByAdministrator: boolean;
  notesFor(order: PayableOrder): PaymentNotes;
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

/** The provider PAYMENT_PROVIDER names (only 'offline' exists). */
export function paymentProviderFor(settings: PackageSettings): PaymentProvider {
  return offlineTransferProvider(settings);
}
