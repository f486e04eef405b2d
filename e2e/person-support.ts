import { randomInt } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { idCheckChar } from '../contract/rules/id-number.ts';
import { latestSmsCode, newPhone } from './support.ts';

/**
 * A well-formed ID number (GB 11643) for one journey: a birth date anywhere in 1950–1999 and a sequence
 * number, about 17 million of them, so that the journeys of one run (each ID may belong to one account
 * only) do not meet by chance, as the 900,000 of before once did.
 */
export function newIdNumber(): string {
  const born = new Date(Date.UTC(1950, 0, 1) + randomInt(0, 50 * 365) * 86_400_000);
  const date = born.toISOString().slice(0, 10).replaceAll('-', '');
  const first17 = `110105${date}${String(randomInt(0, 1000)).padStart(3, '0')}`;
  return first17 + idCheckChar(first17);
}

/** Registers a person through the API with the page's own request context (cookies shared with the page). */
export async function registerViaApi(page: Page): Promise<string> {
  const phone = newPhone();
  const request: APIRequestContext = page.request;
  const call = (name: string, data: object) =>
    request.post(`/v1/account/api/csign/${name}`, { data: { userType: 0, ...data } });
  await call('sendSmsCode', { phone, purpose: 'register' });
  const smsCode = await latestSmsCode(request, phone);
  const res = await call('userRegister', { phone, password: 'Secret12345', smsCode });
  const body = (await res.json()) as { code: number };
  if (body.code !== 0) throw new Error(`register failed: ${JSON.stringify(body)}`);
  return phone;
}

export const personTexts = {
  'en-US': {
    name: 'Name',
    idNumber: 'ID number',
    phone: 'Phone',
    smsCode: 'SMS code',
    getCode: 'Get code',
    verify: 'Verify',
    devProvider: 'Development identity provider',
    checkDigit: 'The check digit of this ID number is wrong: please check the number',
    agreementTitle: 'Digital Certificate Usage Agreement',
    accept: 'Accept and continue',
    issue: 'Issue my certificate',
    done: 'You have opened e-signature',
    serial: 'Serial number',
    addSeal: 'Add a personal seal',
    download: 'Download certificate',
    start: 'Start',
    finish: 'Your e-signature account is open',
    personName: 'Li Lei',
  },
  'zh-CN': {
    name: '姓名',
    idNumber: '身份证号',
    phone: '手机号',
    smsCode: '验证码',
    getCode: '获取验证码',
    verify: '提交认证',
    devProvider: '开发用身份核验服务',
    checkDigit: '身份证号校验位错误，请核对号码',
    agreementTitle: '数字证书使用协议',
    accept: '同意并继续',
    issue: '申请我的证书',
    done: '您已开通电子签章',
    serial: '序列号',
    addSeal: '添加个人印章',
    download: '下载证书',
    start: '开始',
    finish: '电子签章账号已开通',
    personName: '韩梅梅',
  },
} as const;
