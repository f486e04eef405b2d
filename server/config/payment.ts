import { createPrivateKey, createPublicKey } from 'node:crypto';
import { type Env, envEndpoint, envSecret, envText, requireAll } from './env.ts';

// The payment providers' settings (PAYMENT_PROVIDER=wechat / alipay), read with every other setting at
// start; server/providers/payment/ uses them.

export type WechatPaySettings = {
  endpoint: string;
  mchId: string;
  appId: string;
  /** Serial number of the merchant's API certificate. */
  merchantSerialNo: string;
  privateKeyPem: string;
  /** The platform certificate or WeChat Pay public key (PEM) and its serial / key id. */
  platformKeyPem: string;
  platformSerial: string;
  apiV3Key: string;
  notifyUrl: string;
};

/** WECHATPAY_* variables; issues name each missing or bad one. */
export function loadWechatPaySettings(env: Env, publicUrl: string, issues: string[]): WechatPaySettings {
  const s = {
    endpoint: envEndpoint(env, 'WECHATPAY_ENDPOINT', 'https://api.mch.weixin.qq.com', issues),
    mchId: envText(env, 'WECHATPAY_MCHID') ?? '',
    appId: envText(env, 'WECHATPAY_APPID') ?? '',
    merchantSerialNo: envText(env, 'WECHATPAY_MERCHANT_SERIAL_NO') ?? '',
    privateKeyPem: envSecret(env, 'WECHATPAY_PRIVATE_KEY', issues) ?? '',
    platformKeyPem: envSecret(env, 'WECHATPAY_PLATFORM_CERT', issues) ?? '',
    platformSerial: envText(env, 'WECHATPAY_PLATFORM_SERIAL') ?? '',
    apiV3Key: envSecret(env, 'WECHATPAY_API_V3_KEY', issues) ?? '',
    notifyUrl: envText(env, 'WECHATPAY_NOTIFY_URL') ?? `${publicUrl}${PAY_NOTIFY_PATH.wechat}`,
  };
  requireAll(
    {
      WECHATPAY_MCHID: s.mchId,
      WECHATPAY_APPID: s.appId,
      WECHATPAY_MERCHANT_SERIAL_NO: s.merchantSerialNo,
      WECHATPAY_PRIVATE_KEY: s.privateKeyPem,
      WECHATPAY_PLATFORM_CERT: s.platformKeyPem,
      WECHATPAY_PLATFORM_SERIAL: s.platformSerial,
      WECHATPAY_API_V3_KEY: s.apiV3Key,
    },
    'PAYMENT_PROVIDER=wechat',
    issues,
  );
  if (s.apiV3Key && Buffer.byteLength(s.apiV3Key) !== 32)
    issues.push('WECHATPAY_API_V3_KEY: must be the 32-character APIv3 key');
  if (s.privateKeyPem)
    try {
      createPrivateKey(s.privateKeyPem);
    } catch {
      issues.push('WECHATPAY_PRIVATE_KEY: not a PEM private key');
    }
  if (s.platformKeyPem)
    try {
      createPublicKey(s.platformKeyPem);
    } catch {
      issues.push('WECHATPAY_PLATFORM_CERT: not a PEM certificate or public key');
    }
  return s;
}

/** Where the providers POST their notifications (relative to PUBLIC_URL). */
export const PAY_NOTIFY_PATH = { wechat: '/v1/pay/notify/wechat', alipay: '/v1/pay/notify/alipay' } as const;

export type AlipaySettings = {
  gateway: string;
  appId: string;
  privateKeyPem: string;
  alipayPublicKeyPem: string;
  notifyUrl: string;
};

export function loadAlipaySettings(env: Env, publicUrl: string, issues: string[]): AlipaySettings {
  const s = {
    gateway: envEndpoint(env, 'ALIPAY_GATEWAY', 'https://openapi.alipay.com/gateway.do', issues),
    appId: envText(env, 'ALIPAY_APP_ID') ?? '',
    privateKeyPem: envSecret(env, 'ALIPAY_PRIVATE_KEY', issues) ?? '',
    alipayPublicKeyPem: envSecret(env, 'ALIPAY_PUBLIC_KEY', issues) ?? '',
    notifyUrl: envText(env, 'ALIPAY_NOTIFY_URL') ?? `${publicUrl}${PAY_NOTIFY_PATH.alipay}`,
  };
  requireAll(
    {
      ALIPAY_APP_ID: s.appId,
      ALIPAY_PRIVATE_KEY: s.privateKeyPem,
      ALIPAY_PUBLIC_KEY: s.alipayPublicKeyPem,
    },
    'PAYMENT_PROVIDER=alipay',
    issues,
  );
  if (s.privateKeyPem)
    try {
      createPrivateKey(asPem(s.privateKeyPem, 'PRIVATE KEY'));
    } catch {
      issues.push('ALIPAY_PRIVATE_KEY: not an RSA private key (PEM, or the bare base64 Alipay shows)');
    }
  if (s.alipayPublicKeyPem)
    try {
      createPublicKey(asPem(s.alipayPublicKeyPem, 'PUBLIC KEY'));
    } catch {
      issues.push('ALIPAY_PUBLIC_KEY: not an RSA public key (PEM, or the bare base64 Alipay shows)');
    }
  return s;
}

/** Alipay's console shows keys as bare base64: wrap them as PEM. */
export function asPem(key: string, label: string): string {
  if (key.includes('-----BEGIN')) return key;
  const body = key.replace(/\s+/g, '').replace(/(.{64})/g, '$1\n');
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}
