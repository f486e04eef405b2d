// Settings of packages and payments, read from the environment with the rest of server/config.ts.
import {
  type AlipaySettings,
  type WechatPaySettings,
  loadAlipaySettings,
  loadWechatPaySettings,
} from './payment.ts';

/** Placeholders for development and tests: NOT a real bank account (the payment notes say so). */
const DEV_BANK = {
  accountName: 'DEVELOPMENT ONLY - e-signature platform (not a real account)',
  bankName: 'DEVELOPMENT ONLY - Example Bank, Test Branch',
  accountNo: '6200 0000 0000 0000 000',
} as const;

export type PackageSettings = {
  /** Phones of platform administrators (manage packages, confirm payments). */
  platformAdminPhones: string[];
  /** Unpaid orders expire after this many days. */
  orderPaymentDays: number;
  /** How orders are paid: offline bank transfer (an administrator confirms), WeChat Pay or Alipay. */
  paymentProvider: 'offline' | 'wechat' | 'alipay';
  wechat?: WechatPaySettings;
  alipay?: AlipaySettings;
  bank: { accountName: string; bankName: string; accountNo: string; isDevelopmentDefault: boolean };
  /**
   * What an empty catalogue gets on the server's start: 'default' (catalogue.ts), 'none', or the path of a
   * JSON file holding an array of packages (the fields of adminSavePackage).
   */
  catalogue: 'default' | 'none' | { file: string };
};

type PackageSettingsResult = { ok: true; value: PackageSettings } | { ok: false; issues: string[] };

const text = (env: Record<string, string | undefined>, name: string) => {
  const v = env[name]?.trim();
  return v ? v : undefined;
};

/**
 * PLATFORM_ADMIN_PHONES (comma or space separated 11-digit phones), ORDER_PAYMENT_DAYS (1-90, default 7),
 * PAYMENT_PROVIDER (offline | wechat with WECHATPAY_* | alipay with ALIPAY_*), BANK_ACCOUNT_NAME / BANK_NAME / BANK_ACCOUNT_NO (all three or none; none =
 * the development placeholders, marked as such in the payment notes).
 */
export function loadPackageSettings(
  env: Record<string, string | undefined>,
  publicUrl = 'http://localhost:8080',
): PackageSettingsResult {
  const issues: string[] = [];
  const phones = (text(env, 'PLATFORM_ADMIN_PHONES') ?? '').split(/[\s,]+/).filter(Boolean);
  for (const p of phones)
    if (!/^1\d{10}$/.test(p))
      issues.push(`PLATFORM_ADMIN_PHONES: ${p} is not an 11-digit mainland mobile number`);
  const daysText = text(env, 'ORDER_PAYMENT_DAYS') ?? '7';
  const days = Number(daysText);
  if (!Number.isInteger(days) || days < 1 || days > 90)
    issues.push('ORDER_PAYMENT_DAYS: must be a whole number of days from 1 to 90');
  const provider = text(env, 'PAYMENT_PROVIDER') ?? 'offline';
  if (provider !== 'offline' && provider !== 'wechat' && provider !== 'alipay')
    issues.push("PAYMENT_PROVIDER: must be 'offline' (bank transfer), 'wechat' or 'alipay'");
  const wechat = provider === 'wechat' ? loadWechatPaySettings(env, publicUrl, issues) : undefined;
  const alipay = provider === 'alipay' ? loadAlipaySettings(env, publicUrl, issues) : undefined;
  const bankVars = ['BANK_ACCOUNT_NAME', 'BANK_NAME', 'BANK_ACCOUNT_NO'].map((n) => text(env, n));
  const setCount = bankVars.filter(Boolean).length;
  if (setCount > 0 && setCount < 3)
    issues.push(
      'BANK_ACCOUNT_NAME, BANK_NAME, BANK_ACCOUNT_NO: set all three, or none for the development placeholders',
    );
  const bank =
    setCount === 3
      ? {
          accountName: bankVars[0]!,
          bankName: bankVars[1]!,
          accountNo: bankVars[2]!,
          isDevelopmentDefault: false,
        }
      : { ...DEV_BANK, isDevelopmentDefault: true };
  const catalogueText = text(env, 'PACKAGE_CATALOGUE') ?? 'default';
  const catalogue: PackageSettings['catalogue'] =
    catalogueText === 'default' || catalogueText === 'none' ? catalogueText : { file: catalogueText };
  if (issues.length) return { ok: false, issues };
  return {
    ok: true,
    value: {
      platformAdminPhones: [...new Set(phones)],
      orderPaymentDays: days,
      paymentProvider: provider as PackageSettings['paymentProvider'],
      wechat,
      alipay,
      bank,
      catalogue,
    },
  };
}
