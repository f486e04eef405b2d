import { greyPng } from '../tests/server/fixtures/png.ts';
import { type APIRequestContext, type BrowserContext, expect } from '@playwright/test';
import { CREDIT_CODE_ALPHABET, creditCodeCheckChar } from '../contract/rules/credit-code.ts';
import { KEY_SUFFIX_HEADER, XSRF_HEADER, keySuffixOf } from '../contract/transport.ts';
import { latestSmsCode, newPhone } from './support.ts';

export const PASSWORD = 'Secret12345';

/** A fresh, valid unified social credit code. */
export function newCreditCode(): string {
  let body = '91330106';
  for (let i = 0; i < 9; i++) body += CREDIT_CODE_ALPHABET[Math.floor(Math.random() * 31)];
  return body + creditCodeCheckChar(body);
}

/** POSTs a call with the context's cookies and, once logged in, the XSRF headers the app would send. */
export async function api<T = unknown>(context: BrowserContext, name: string, data: object): Promise<T> {
  const token = (await context.cookies()).find((c) => c.name === 'token')?.value;
  const headers: Record<string, string> = token
    ? { [XSRF_HEADER]: token, [KEY_SUFFIX_HEADER]: keySuffixOf(token) }
    : {};
  const res = await context.request.post(`/v1/account/api/csign/${name}`, {
    data: { userType: 0, ...data },
    headers,
  });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  if (body.code !== 0) throw new Error(`${name} failed (${res.status()}): ${JSON.stringify(body)}`);
  return body.data;
}

/** Registers a person in the context (cookies shared with its pages); returns the phone. */
export async function registerIn(context: BrowserContext): Promise<string> {
  const phone = newPhone();
  await api(context, 'sendSmsCode', { phone, purpose: 'register' });
  const smsCode = await latestSmsCode(context.request, phone);
  await api(context, 'userRegister', { phone, password: PASSWORD, smsCode });
  return phone;
}

/** The amount the development bank "paid" to the company, read from the dev outbox. */
export async function paidAmount(request: APIRequestContext, creditCode: string): Promise<string> {
  let amount = '';
  await expect
    .poll(async () => {
      const res = await request.get(`/v1/dev/outbox?phone=${encodeURIComponent(`bank:${creditCode}`)}`);
      const body = (await res.json()) as { data: { text: string }[] };
      amount = /(\d+\.\d{2}) CNY/.exec(body.data[0]?.text ?? '')?.[1] ?? '';
      return amount;
    })
    .toMatch(/^\d+\.\d{2}$/);
  return amount;
}

/** Opens a verified company through the API (the context's person as legal representative and admin). */
export async function openCompanyByApi(context: BrowserContext, name: string): Promise<string> {
  const creditCode = newCreditCode();
  const { companyId } = await api<{ companyId: string }>(context, 'applyCompanyEsign', {
    companyName: name,
    creditCode,
    legalRepName: '张三',
    applicantRole: 'legal_rep',
  });
  await api(context, 'sendCompanyMicroPayment', { companyId });
  const amount = await paidAmount(context.request, creditCode);
  await api(context, 'confirmCompanyMicroPayment', { companyId, amount });
  await api(context, 'switchAccount', { targetUserType: 1, companyId });
  return companyId;
}

/** The link of the latest operator invitation texted to `phone` (the development outbox): its SPA path. */
export async function invitationLink(request: APIRequestContext, phone: string): Promise<string> {
  let link = '';
  await expect
    .poll(async () => {
      const res = await request.get(`/v1/dev/outbox?phone=${phone}`);
      const body = (await res.json()) as { data: { purpose: string; text: string }[] };
      const sms = body.data.find((m) => m.purpose === 'company:invitation');
      link = /#(\/companyInvitation\/[0-9a-f-]{36})/.exec(sms?.text ?? '')?.[1] ?? '';
      return link;
    })
    .toMatch(/^\/companyInvitation\//);
  return link;
}

/** A small real PNG (a grey 64x64 square) standing in for a scanned power-of-attorney letter. */
export const letterPng = (): Buffer => greyPng(64, 0xa0);

export const companyTexts = {
  'en-US': {
    companyName: 'Company name',
    creditCode: 'Unified social credit code',
    legalRepName: 'Legal representative',
    agent: 'an agent (with a power-of-attorney letter)',
    submit: 'Submit',
    letterFile: 'Letter file',
    letterUploaded: 'Letter uploaded',
    sendPayment: 'Send the micro-payment',
    amount: 'Amount received (CNY)',
    confirmAmount: 'Confirm the amount',
    wrongAmount: /does not match; 2 attempts left/,
    success: 'Congratulations! You have successfully opened e-signature!',
    devProvider: /Development verification provider/,
    ccCheck: 'This unified social credit code is not valid (its check character does not match)',
    searchKeyword: 'Company name or credit code',
    search: 'Search',
    requestJoin: 'Ask to join',
    waiting: 'Waiting for approval',
    approve: 'Approve',
    active: 'Active',
    switchAccount: 'Switch account',
    current: 'Current',
    invite: 'Invite operator',
    invitations: 'Invitations',
    invitationWaiting: 'Waiting for answer',
    invitationAccepted: 'Accepted',
    invitationScreen: 'XX invites you to become its operator (Operator).',
    accept: 'Accept',
    acceptedText: 'You are now an operator of XX.',
    actForCompany: 'Act for this company',
    phone: 'Phone',
    ok: 'OK',
    noPermission: /user has no permission/i,
  },
  'zh-CN': {
    companyName: '企业名称',
    creditCode: '统一社会信用代码',
    legalRepName: '法定代表人',
    agent: '经办人（需上传授权委托书）',
    submit: '提交',
    letterFile: '委托书文件',
    letterUploaded: '委托书已上传',
    sendPayment: '发起打款',
    amount: '收到的金额（元）',
    confirmAmount: '确认金额',
    wrongAmount: /金额不正确，还可尝试 2 次/,
    success: '恭喜您！您已成功开通电子签章！',
    devProvider: /开发环境认证服务/,
    ccCheck: '统一社会信用代码无效（校验位不符）',
    searchKeyword: '企业名称或信用代码',
    search: '搜索',
    requestJoin: '申请加入',
    waiting: '待审核',
    approve: '同意',
    active: '已启用',
    switchAccount: '切换账号',
    current: '当前',
    invite: '邀请经办人',
    invitations: '邀请记录',
    invitationWaiting: '待接受',
    invitationAccepted: '已接受',
    invitationScreen: 'XX 邀请您成为企业经办人（经办人）。',
    accept: /接\s*受/,
    acceptedText: '您已成为 XX 的经办人。',
    actForCompany: '以该企业身份办理',
    phone: '手机号',
    ok: '确定',
    noPermission: /用户没有权限/,
  },
} as const;
