import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { KEY_SUFFIX_HEADER, keySuffixOf, TOKEN_COOKIE, XSRF_HEADER } from '../contract/transport.ts';
import { newIdNumber } from './person-support.ts';
import { latestSmsCode, newPhone } from './support.ts';

const PASSWORD = 'Secret12345';

/** POSTs a call as the client does: with a session, the XSRF headers come from the token cookie. */
async function call<T = unknown>(request: APIRequestContext, name: string, data: object): Promise<T> {
  const { cookies } = await request.storageState();
  const token = cookies.find((c) => c.name === TOKEN_COOKIE)?.value;
  const headers: Record<string, string> = token
    ? { [XSRF_HEADER]: token, [KEY_SUFFIX_HEADER]: keySuffixOf(token) }
    : {};
  const res = await request.post(`/v1/account/api/csign/${name}`, {
    data: { userType: 0, ...data },
    headers,
  });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  if (body.code !== 0) throw new Error(`${name} failed (${res.status()}): ${JSON.stringify(body)}`);
  return body.data;
}

/**
 * A person who opened e-signature through the person calls (page.request shares the page's cookies):
 * register, real-name check, agreement, certificate. Answers the phone and the certificate's serial.
 */
export async function openedPerson(page: Page, name: string): Promise<{ phone: string; serial: string }> {
  const phone = newPhone();
  await call(page.request, 'sendSmsCode', { phone, purpose: 'register' });
  await call(page.request, 'userRegister', {
    phone,
    password: PASSWORD,
    smsCode: await latestSmsCode(page.request, phone),
  });
  // The real-name SMS goes to the phone named in the form: a fresh one, so its code is the only one.
  const idPhone = newPhone();
  await call(page.request, 'sendSmsCode', { phone: idPhone, purpose: 'realName' });
  await call(page.request, 'authIdNamePhone', {
    name,
    idNumber: newIdNumber(),
    phone: idPhone,
    smsCode: await latestSmsCode(page.request, idPhone),
  });
  const agreement = await call<{ version: string }>(page.request, 'getUserAgreement', {});
  await call(page.request, 'acceptUserAgreement', { version: agreement.version });
  const cert = await call<{ serial: string }>(page.request, 'createPersonCaCert', {});
  return { phone, serial: cert.serial };
}

/** The newest certChange code sent to `phone` that is not one of `used` (read from the dev outbox). */
export async function certChangeCode(
  request: APIRequestContext,
  phone: string,
  used: string[],
): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const res = await request.get(`/v1/dev/outbox?phone=${phone}`);
      const body = (await res.json()) as { data: { code: string | null; purpose: string }[] };
      code = body.data.find((m) => m.purpose === 'certChange' && m.code)?.code ?? '';
      return code && !used.includes(code) ? code : '';
    })
    .toMatch(/^\d{6}$/);
  return code;
}

export const certTexts = {
  'en-US': {
    title: 'Certificate change',
    renew: 'Renew certificate',
    reissue: 'Revoke and reissue',
    getCode: 'Get code',
    smsCode: 'SMS code',
    confirmRenew: 'Renew',
    confirmReissue: 'Revoke and reissue',
    renewed: 'Your certificate was renewed',
    reissued: 'The certificate was revoked and a new one issued',
    keepValid: 'documents signed earlier stay valid',
    nameChanged: 'Name changed',
    nameUnchanged: 'Complete real-name verification again with your new name first',
    keyCompromise: 'Key compromised',
    cannotVouch: 'the platform cannot vouch for any signature made with the revoked certificate',
    revoked: 'Revoked',
    superseded: 'Replaced (still valid)',
    historyTitle: 'Earlier certificates',
    personName: 'Li Lei',
  },
  'zh-CN': {
    title: '证书变更',
    renew: '更新证书',
    reissue: '吊销并重新签发',
    getCode: '获取验证码',
    smsCode: '验证码',
    confirmRenew: '确认更新',
    confirmReissue: '确认吊销并重新签发',
    renewed: '证书已更新',
    reissued: '证书已吊销并重新签发',
    keepValid: '之前签署的文件仍然有效',
    nameChanged: '名称变更',
    nameUnchanged: '请先用新姓名重新完成实名认证',
    keyCompromise: '密钥泄露',
    cannotVouch: '平台无法为使用被吊销证书所做的任何签署提供担保',
    revoked: '已吊销',
    superseded: '已更新（仍有效）',
    historyTitle: '历史证书',
    personName: '韩梅梅',
  },
} as const;
