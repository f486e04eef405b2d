import { CommonClient } from 'tencentcloud-sdk-nodejs-common';
import type { FaceCallback, FaceQuery, IdentityProvider, IdentityVerdict } from './identity-provider.ts';
import type { RealIdentitySettings } from '../../config/identity.ts';

// Tencent Cloud faceid (API 2018-03-01) through the official SDK core (tencentcloud-sdk-nodejs-common's
// CommonClient: TC3-HMAC-SHA256 signing, the SDK's errors). There is no separate faceid package on the
// registry; the common client is what every product package wraps.
//  - PhoneVerification: name + ID number + phone (carrier three-factor); Result "0" = consistent.
//  - DetectAuth: starts the H5 face check (RuleId, IdCard, Name, RedirectUrl) -> Url, BizToken.
//  - GetDetectInfoEnhanced: the server asks for the result with the BizToken it keeps (never the browser's
//    word); Text.ErrCode 0 = passed.
// The SDK takes the signing service from the endpoint's first label (faceid.tencentcloudapi.com ->
// faceid); a stand-in at http://127.0.0.1:PORT therefore sees the scope's service "127".

const THREE_FACTOR_REASON: Record<string, { en: string; zh: string }> = {
  '-4': { en: 'name, ID number and phone do not belong together', zh: '姓名、身份证号与手机号不一致' },
  '-5': { en: 'no record of this ID number', zh: '身份证号无记录' },
  '-6': { en: 'the phone number is not registered to this identity', zh: '手机号码不存在或非本人实名' },
  '-7': { en: 'the phone number is not in service', zh: '手机号码已停机或不在服务中' },
};

export class TencentIdentityProvider implements IdentityProvider {
  readonly name = 'tencent';
  readonly isDevelopment = false;
  readonly needsIdNumberForFace = true;
  readonly #client: CommonClient;
  readonly #ruleId: string;

  constructor(s: RealIdentitySettings) {
    const url = new URL(s.endpoint);
    this.#client = new CommonClient('faceid.tencentcloudapi.com', '2018-03-01', {
      credential: { secretId: s.accessKeyId, secretKey: s.accessKeySecret },
      region: s.region,
      profile: {
        httpProfile: { endpoint: url.host, protocol: `${url.protocol}//`, reqMethod: 'POST', reqTimeout: 20 },
      },
    });
    this.#ruleId = s.faceScene;
  }

  async verifyIdNamePhone(input: {
    name: string;
    idNumber: string;
    phone: string;
  }): Promise<IdentityVerdict> {
    const r = (await this.#client.request('PhoneVerification', {
      IdCard: input.idNumber,
      Name: input.name,
      Phone: input.phone,
    })) as { Result?: string; Description?: string; RequestId?: string };
    if (r.Result === '0') return { ok: true, requestId: r.RequestId };
    return {
      ok: false,
      requestId: r.RequestId,
      reason: THREE_FACTOR_REASON[r.Result ?? ''] ?? {
        en: `the identity check failed (${r.Result ?? '?'})`,
        zh: `实名核验未通过（${r.Description ?? r.Result ?? '?'}）`,
      },
    };
  }

  async startFace(input: {
    personCode: string;
    name: string;
    idNumber: string | null;
    providerReturnUrl: string;
  }) {
    if (!input.idNumber) throw new Error('the face check needs the ID number of the verified identity');
    const r = (await this.#client.request('DetectAuth', {
      RuleId: this.#ruleId,
      IdCard: input.idNumber,
      Name: input.name,
      RedirectUrl: input.providerReturnUrl,
      Extra: input.personCode,
    })) as { Url?: string; BizToken?: string; RequestId?: string };
    if (!r.Url || !r.BizToken) throw new Error('Tencent faceid answered no Url/BizToken');
    return { url: r.Url, providerRef: r.BizToken, requestId: r.RequestId };
  }

  /** Tencent reports face results by the server-side query only: a posted body is never believed. */
  checkFace(_body: unknown): FaceCallback | null {
    return null;
  }

  async queryFace(ref: { providerRef: string }): Promise<FaceQuery> {
    const r = (await this.#client.request('GetDetectInfoEnhanced', {
      BizToken: ref.providerRef,
      RuleId: this.#ruleId,
      InfoType: '0',
    })) as { Text?: { ErrCode?: number | null; ErrMsg?: string }; RequestId?: string };
    const code = r.Text?.ErrCode;
    const requestId = r.RequestId ?? '';
    if (code === 0) return { result: 'passed', requestId };
    if (code === null || code === undefined) return { result: 'pending', requestId };
    return { result: 'failed', requestId, detail: `${code} ${r.Text?.ErrMsg ?? ''}`.trim() };
  }
}
