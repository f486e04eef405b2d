import Dysmsapi, { SendSmsRequest } from '@alicloud/dysmsapi20170525';
import { $OpenApiUtil } from '@alicloud/openapi-core';
import type { SmsFailureKind, SmsProvider, SmsResult, SmsSettings, SmsToSend } from './sms-provider.ts';

type AliyunSettings = Exclude<SmsSettings, { provider: 'outbox' }>;

// The package is CommonJS with `exports.default`; under Node's ESM loader the class may sit one level down.
const DysmsapiClient = ((Dysmsapi as unknown as { default?: typeof Dysmsapi }).default ??
  Dysmsapi) as typeof Dysmsapi;

/** Aliyun SendSms answer codes (help.aliyun.com/document_detail/101346.html) by what they mean for us. */
const KIND_OF_CODE: Record<string, SmsFailureKind> = {
  'isv.BUSINESS_LIMIT_CONTROL': 'throttled',
  'isv.DAY_LIMIT_CONTROL': 'throttled',
  'isv.MOBILE_NUMBER_ILLEGAL': 'invalid_phone',
  'isv.MOBILE_COUNT_OVER_LIMIT': 'invalid_phone',
  'isv.SMS_TEMPLATE_ILLEGAL': 'config',
  'isv.SMS_SIGNATURE_ILLEGAL': 'config',
  'isv.SMS_SIGN_ILLEGAL': 'config',
  'isv.TEMPLATE_MISSING_PARAMETERS': 'config',
  'isv.TEMPLATE_PARAMS_ILLEGAL': 'config',
  'isv.INVALID_PARAMETERS': 'config',
  'isv.INVALID_JSON_PARAM': 'config',
  'isv.AMOUNT_NOT_ENOUGH': 'config',
  'isv.OUT_OF_SERVICE': 'config',
  'isv.ACCOUNT_NOT_EXISTS': 'config',
  'isv.ACCOUNT_ABNORMAL': 'config',
  'isv.PRODUCT_UN_SUBSCRIPT': 'config',
  'isv.PRODUCT_UNSUBSCRIBE': 'config',
  'isp.RAM_PERMISSION_DENY': 'config',
  'isp.SYSTEM_ERROR': 'temporary',
  'isp.GATEWAY_ERROR': 'temporary',
  ServiceUnavailable: 'temporary',
  InternalError: 'temporary',
};

function kindOf(code: string, httpStatus: number | undefined): SmsFailureKind {
  const known = KIND_OF_CODE[code];
  if (known) return known;
  if (code.startsWith('Throttling')) return 'temporary';
  if (httpStatus === undefined || httpStatus >= 500) return 'temporary';
  if (/AccessKey|Signature|Forbidden|NoPermission/i.test(code) || httpStatus === 401 || httpStatus === 403)
    return 'config';
  return 'rejected';
}

/**
 * Aliyun SMS (dysmsapi 2017-05-25) through the official SDK and its OpenAPI core, which signs every
 * request with ACS3-HMAC-SHA256. Phone numbers go without the country code (Aliyun's mainland form).
 */
export class AliyunSmsProvider implements SmsProvider {
  readonly name = 'aliyun';
  readonly #client: Dysmsapi;
  readonly #signName: string;

  constructor(s: AliyunSettings) {
    this.#signName = s.signName;
    this.#client = new DysmsapiClient(
      new $OpenApiUtil.Config({
        accessKeyId: s.accessKeyId,
        accessKeySecret: s.accessKeySecret,
        regionId: s.region,
        endpoint: s.endpoint?.host ?? 'dysmsapi.aliyuncs.com',
        protocol: s.endpoint?.protocol ?? 'https',
        readTimeout: s.timeoutMs,
        connectTimeout: s.timeoutMs,
      }),
    );
  }

  async send(m: SmsToSend): Promise<SmsResult> {
    const request = new SendSmsRequest({
      phoneNumbers: m.phone.replace(/^\+?86/, ''),
      signName: this.#signName,
      templateCode: m.templateId,
      templateParam: JSON.stringify(Object.fromEntries(m.params)),
    });
    try {
      const answer = await this.#client.sendSms(request);
      const body = answer.body;
      const requestId = body?.requestId ?? null;
      if (body?.code === 'OK') return { ok: true, messageId: body.bizId ?? requestId ?? '', requestId };
      const code = body?.code ?? 'EmptyAnswer';
      return {
        ok: false,
        kind: kindOf(code, answer.statusCode),
        code,
        message: body?.message ?? '',
        requestId,
      };
    } catch (err) {
      const e = err as {
        code?: string;
        message?: string;
        statusCode?: number;
        data?: { RequestId?: string };
      };
      const code = e.code ?? 'NetworkError';
      return {
        ok: false,
        kind: kindOf(code, e.statusCode),
        code,
        message: (e.message ?? '').slice(0, 500),
        requestId: e.data?.RequestId ?? null,
      };
    }
  }
}
