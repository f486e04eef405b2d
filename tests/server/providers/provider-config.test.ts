// Provider settings are validated at start: a missing or malformed variable stops the start with its name,
// and a secret never appears in the message.
import { describe, expect, test } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { rsaPair } from '../fixtures/provider-stand-in.ts';

const base = { NODE_ENV: 'test', DATABASE_URL: 'memory://' };

describe('provider settings', () => {
  test('PAYMENT_PROVIDER=wechat names each missing WECHATPAY_* variable', () => {
    expect(() => loadConfig({ ...base, PAYMENT_PROVIDER: 'wechat' })).toThrow(
      /WECHATPAY_MCHID: required[\s\S]*WECHATPAY_PRIVATE_KEY: required[\s\S]*WECHATPAY_API_V3_KEY: required/,
    );
  });

  test('a bad key or APIv3 key is named, not echoed', () => {
    const secret = 'short-secret-value';
    let message = '';
    try {
      loadConfig({
        ...base,
        PAYMENT_PROVIDER: 'wechat',
        WECHATPAY_MCHID: '1900000109',
        WECHATPAY_APPID: 'wx1',
        WECHATPAY_MERCHANT_SERIAL_NO: 'S',
        WECHATPAY_PRIVATE_KEY: 'not a key',
        WECHATPAY_PLATFORM_CERT: rsaPair().publicPem,
        WECHATPAY_PLATFORM_SERIAL: 'P',
        WECHATPAY_API_V3_KEY: secret,
        WECHATPAY_ENDPOINT: 'ftp://x',
      });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/WECHATPAY_PRIVATE_KEY: not a PEM private key/);
    expect(message).toMatch(/WECHATPAY_API_V3_KEY: must be the 32-character APIv3 key/);
    expect(message).toMatch(/WECHATPAY_ENDPOINT: must be an http/);
    expect(message).not.toContain(secret);
  });

  test('PAYMENT_PROVIDER=alipay and an unknown provider', () => {
    expect(() => loadConfig({ ...base, PAYMENT_PROVIDER: 'alipay' })).toThrow(
      /ALIPAY_APP_ID: required[\s\S]*ALIPAY_PRIVATE_KEY: required[\s\S]*ALIPAY_PUBLIC_KEY: required/,
    );
    expect(() => loadConfig({ ...base, PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYMENT_PROVIDER: must be/);
  });

  test('IDENTITY_PROVIDER=tencent|aliyun need their key and face scene', () => {
    expect(() => loadConfig({ ...base, IDENTITY_PROVIDER: 'tencent' })).toThrow(
      /IDENTITY_ACCESS_KEY_ID: required with IDENTITY_PROVIDER=tencent[\s\S]*IDENTITY_FACE_SCENE/,
    );
    expect(() =>
      loadConfig({
        ...base,
        IDENTITY_PROVIDER: 'aliyun',
        IDENTITY_ACCESS_KEY_ID: 'LTAI',
        IDENTITY_ACCESS_KEY_SECRET: 's',
        IDENTITY_FACE_SCENE: 'abc',
      }),
    ).toThrow(/IDENTITY_FACE_SCENE: the Aliyun SceneId is a number/);
    const ok = loadConfig({
      ...base,
      IDENTITY_PROVIDER: 'tencent',
      IDENTITY_ACCESS_KEY_ID: 'AKID',
      IDENTITY_ACCESS_KEY_SECRET: 's',
      IDENTITY_FACE_SCENE: '1',
    });
    expect(ok.identity.real).toMatchObject({
      endpoint: 'https://faceid.tencentcloudapi.com',
      region: 'ap-guangzhou',
    });
  });
});
