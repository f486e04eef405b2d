import Cloudauth, * as $C from '@alicloud/cloudauth20190307';
import { $OpenApiUtil } from '@alicloud/openapi-core';
import type { FaceCallback, FaceQuery, IdentityProvider, IdentityVerdict } from './identity-provider.ts';
import type { RealIdentitySettings } from '../../config/identity.ts';

// Aliyun ID Verification (cloudauth 2019-03-07) through the official SDK (@alicloud/cloudauth20190307 on
// @alicloud/openapi-core: ACS3-HMAC-SHA256 signed requests).
//  - Mobile3MetaSimpleVerify: name + ID number + phone; ResultObject.BizCode "1" = consistent.
//  - InitFaceVerify (ProductCode ID_PRO): the H5 face check against the register photo -> CertifyUrl,
//    CertifyId.
//  - DescribeFaceVerify: the server asks for the result with the CertifyId it keeps; Passed "T".

const THREE_FACTOR_REASON: Record<string, { en: string; zh: string }> = {
  '2': { en: 'name, ID number and phone do not belong together', zh: '姓名、身份证号与手机号不一致' },
  '3': { en: 'no record of this phone number', zh: '查无此手机号记录' },
};

/** The browser's device description Aliyun asks for; H5 pages without its JS SDK send this form. */
const H5_META_INFO = JSON.stringify({
  zimVer: '3.0.0',
  appVersion: '1',
  bioMetaInfo: '4.1.0:1150xxx,0',
  appName: 'com.aliyun.antcloudauth',
  deviceType: 'h5',
  osVersion: 'unknown',
  apdidToken: '',
  deviceModel: 'browser',
});

const CloudauthClient = ((Cloudauth as unknown as { default?: typeof Cloudauth }).default ??
  Cloudauth) as typeof Cloudauth;

export class AliyunIdentityProvider implements IdentityProvider {
  readonly name = 'aliyun';
  readonly isDevelopment = false;
  readonly needsIdNumberForFace = true;
  readonly #client: InstanceType<typeof Cloudauth>;
  readonly #sceneId: number;

  constructor(s: RealIdentitySettings) {
    const url = new URL(s.endpoint);
    this.#client = new CloudauthClient(
      new $OpenApiUtil.Config({
        accessKeyId: s.accessKeyId,
        accessKeySecret: s.accessKeySecret,
        regionId: s.region,
        endpoint: url.host,
        protocol: url.protocol.replace(':', ''),
        readTimeout: 20_000,
        connectTimeout: 5_000,
      }),
    );
    this.#sceneId = Number(s.faceScene);
  }

  async verifyIdNamePhone(input: {
    name: string;
    idNumber: string;
    phone: string;
  }): Promise<IdentityVerdict> {
    const r = await this.#client.mobile3MetaSimpleVerify(
      new $C.Mobile3MetaSimpleVerifyRequest({
        paramType: 'normal',
        identifyNum: input.idNumber,
        userName: input.name,
        mobile: input.phone,
      }),
    );
    const body = r.body;
    if (body?.code !== '200')
      throw new Error(`Aliyun Mobile3MetaSimpleVerify: ${body?.code} ${body?.message}`);
    const bizCode = body.resultObject?.bizCode ?? '';
    if (bizCode === '1') return { ok: true, requestId: body.requestId };
    return {
      ok: false,
      requestId: body.requestId,
      reason: THREE_FACTOR_REASON[bizCode] ?? {
        en: `the identity check failed (${bizCode || '?'})`,
        zh: `实名核验未通过（${bizCode || '?'}）`,
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
    const r = await this.#client.initFaceVerify(
      new $C.InitFaceVerifyRequest({
        sceneId: this.#sceneId,
        outerOrderNo: input.personCode,
        productCode: 'ID_PRO',
        certType: 'IDENTITY_CARD',
        certName: input.name,
        certNo: input.idNumber,
        returnUrl: input.providerReturnUrl,
        metaInfo: H5_META_INFO,
      }),
    );
    const body = r.body;
    const certifyId = body?.resultObject?.certifyId;
    const certifyUrl = body?.resultObject?.certifyUrl;
    if (body?.code !== '200' || !certifyId || !certifyUrl)
      throw new Error(`Aliyun InitFaceVerify: ${body?.code} ${body?.message}`);
    return { url: certifyUrl, providerRef: certifyId, requestId: body.requestId };
  }

  /** Aliyun's result is read by the server-side query only: a posted body is never believed. */
  checkFace(_body: unknown): FaceCallback | null {
    return null;
  }

  async queryFace(ref: { providerRef: string }): Promise<FaceQuery> {
    const r = await this.#client.describeFaceVerify(
      new $C.DescribeFaceVerifyRequest({ sceneId: this.#sceneId, certifyId: ref.providerRef }),
    );
    const body = r.body;
    const requestId = body?.requestId ?? '';
    if (body?.code !== '200')
      return { result: 'pending', requestId, detail: `${body?.code} ${body?.message}` };
    const passed = body.resultObject?.passed;
    if (passed === 'T') return { result: 'passed', requestId };
    if (passed === 'F') return { result: 'failed', requestId, detail: body.resultObject?.subCode ?? '' };
    return { result: 'pending', requestId };
  }
}
