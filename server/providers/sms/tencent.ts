import * as tencentSms from 'tencentcloud-sdk-nodejs-sms';
import type { SmsFailureKind, SmsProvider, SmsResult, SmsSettings, SmsToSend } from './sms-provider.ts';

type TencentSettings = Exclude<SmsSettings, { provider: 'outbox' }>;
type Client = InstanceType<typeof tencentSms.sms.v20210111.Client>;

/** Tencent Cloud SMS error codes (cloud.tencent.com/document/product/382/52075) by what they mean for us. */
function kindOf(code: string): SmsFailureKind {
  if (code === 'Ok') throw new Error('not a failure');
  if (code.startsWith('LimitExceeded.Phone') || code === 'LimitExceeded.DailyLimit') return 'throttled';
  if (
    code === 'InvalidParameterValue.IncorrectPhoneNumber' ||
    code === 'FailedOperation.PhoneNumberInBlacklist' ||
    code === 'UnsupportedOperation.ContainDomesticAndInternationalPhoneNumber' ||
    code === 'FailedOperation.PhoneNumberParseFail'
  )
    return 'invalid_phone';
  if (
    code.startsWith('InternalError') ||
    code === 'RequestLimitExceeded' ||
    code === 'ServiceUnavailable' ||
    code === 'NetworkError'
  )
    return 'temporary';
  if (
    code.startsWith('AuthFailure') ||
    code.startsWith('FailedOperation.Template') ||
    code.startsWith('FailedOperation.Signature') ||
    code.startsWith('FailedOperation.Sign') ||
    code === 'FailedOperation.InsufficientBalanceInSmsPackage' ||
    code === 'FailedOperation.MissingSignature' ||
    code === 'FailedOperation.MissingTemplateToModify' ||
    code.startsWith('UnauthorizedOperation') ||
    code.startsWith('InvalidParameterValue.Template') ||
    code === 'InvalidParameterValue.SdkAppIdNotExist' ||
    code === 'InvalidParameterValue.ProhibitedUseUrlInTemplateParameter'
  )
    return 'config';
  return 'rejected';
}

/**
 * Tencent Cloud SMS (API 2021-01-11) through the official SDK, which signs every request with
 * TC3-HMAC-SHA256. Phone numbers go in E.164 (+86…); template variables are positional.
 */
export class TencentSmsProvider implements SmsProvider {
  readonly name = 'tencent';
  readonly #client: Client;
  readonly #signName: string;
  readonly #appId: string;

  constructor(s: TencentSettings) {
    this.#signName = s.signName;
    this.#appId = s.appId ?? '';
    this.#client = new tencentSms.sms.v20210111.Client({
      credential: { secretId: s.accessKeyId, secretKey: s.accessKeySecret },
      region: s.region,
      profile: {
        httpProfile: {
          endpoint: s.endpoint?.host ?? 'sms.tencentcloudapi.com',
          protocol: `${s.endpoint?.protocol ?? 'https'}://`,
          reqTimeout: Math.max(1, Math.ceil(s.timeoutMs / 1000)),
        },
      },
    });
  }

  async send(m: SmsToSend): Promise<SmsResult> {
    const e164 = m.phone.startsWith('+') ? m.phone : `+86${m.phone}`;
    try {
      const answer = await this.#client.SendSms({
        PhoneNumberSet: [e164],
        SmsSdkAppId: this.#appId,
        SignName: this.#signName,
        TemplateId: m.templateId,
        TemplateParamSet: m.params.map(([, value]) => value),
      });
      const requestId = answer.RequestId ?? null;
      const status = answer.SendStatusSet?.[0];
      if (status?.Code === 'Ok')
        return { ok: true, messageId: status.SerialNo ?? requestId ?? '', requestId };
      const code = status?.Code ?? 'EmptyAnswer';
      return { ok: false, kind: kindOf(code), code, message: status?.Message ?? '', requestId };
    } catch (err) {
      // The SDK throws for an error answer ({Response: {Error}}) and for network failures (no code).
      const e = err as { code?: string; message?: string; requestId?: string; httpCode?: number };
      const code = e.code || (e.httpCode && e.httpCode < 500 ? `HTTP${e.httpCode}` : 'NetworkError');
      return {
        ok: false,
        kind: kindOf(code),
        code,
        message: (e.message ?? '').slice(0, 500),
        requestId: e.requestId || null,
      };
    }
  }
}
