import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { KEY_SUFFIX_HEADER, keySuffixOf, TOKEN_COOKIE, XSRF_HEADER } from '../contract/transport.ts';
import { call, latestSigningLink, nextSmsCode, smsCount } from './signing-support.ts';
import { latestSmsCode } from './support.ts';

/** Phones in PLATFORM_ADMIN_PHONES of the e2e server (playwright.config.ts), one per language's journey. */
export const PLATFORM_ADMIN_PHONE = { 'zh-CN': '13700000901', 'en-US': '13700000902' } as const;
const PASSWORD = 'Secret12345';

/** Registers (or logs in) a fixed phone through the API with the page's request context. */
export async function registerOrLogin(request: APIRequestContext, phone: string): Promise<void> {
  try {
    await call(request, 'userLogin', { phone, password: PASSWORD });
  } catch {
    await call(request, 'sendSmsCode', { phone, purpose: 'register' });
    const smsCode = await latestSmsCode(request, phone);
    await call(request, 'userRegister', { phone, password: PASSWORD, smsCode });
  }
}

/** Uploads a PDF file for the session account (multipart, with the app's XSRF headers). */
export async function uploadPdf(request: APIRequestContext, file: string, userType: number): Promise<string> {
  const { cookies } = await request.storageState();
  const token = cookies.find((c) => c.name === TOKEN_COOKIE)?.value ?? '';
  const res = await request.post('/v1/account/api/csign/uploadDocument', {
    headers: { [XSRF_HEADER]: token, [KEY_SUFFIX_HEADER]: keySuffixOf(token) },
    multipart: {
      userType: String(userType),
      file: { name: 'contract.pdf', mimeType: 'application/pdf', buffer: readFileSync(file) },
    },
  });
  const body = (await res.json()) as { code: number; msg: string; data: { documentId: string } };
  if (body.code !== 0) throw new Error(`upload refused: ${JSON.stringify(body)}`);
  return body.data.documentId;
}

/** A person party signs through its link: link SMS code, room login, signing SMS code, signature. */
export async function signByLink(
  request: APIRequestContext,
  phone: string,
  personSealId: string,
): Promise<string> {
  const link = await latestSigningLink(request, phone);
  const [, linkType, linkCode] = /\/singingRoom\/(\d)\/([\w-]+)/.exec(link) ?? [];
  let before = await smsCount(request, phone);
  await call(request, 'sendLinkSmsCode', { linkType: Number(linkType), linkCode, phone });
  const loginCode = await nextSmsCode(request, phone, before);
  const room = await call<{ roomToken: string }>(request, 'signingRoomLoginByLinkCode', {
    linkType: Number(linkType),
    linkCode,
    phone,
    smsCode: loginCode,
  });
  // The signing code has its own purpose: it may follow the room-login code at once.
  before = await smsCount(request, phone);
  await call(request, 'sendSignSmsCode', { roomToken: room.roomToken });
  const smsCode = await nextSmsCode(request, phone, before);
  const signed = await call<{ flowStatus: string }>(request, 'signDocument', {
    roomToken: room.roomToken,
    smsCode,
    personSealId,
  });
  return signed.flowStatus;
}

type Quantities = {
  totalQuantitySum: number;
  totalReserveQuantity: number;
  totalUseQuantity: number;
  remainQuantity: number;
};

export const quantitiesOf = (request: APIRequestContext, userType: number) =>
  call<Quantities>(request, 'getUserQualification', { userType });

export const packageTexts = {
  'en-US': {
    buy: 'Buy',
    copies: 'Copies',
    checkout: 'Check out',
    confirm: 'Confirm payment',
    paid: 'Paid',
    awaiting: 'Awaiting payment',
    export: 'Export',
    used: 'Used',
    reserved: 'Reserved',
    quantities: (total: number, reserved: number, used: number, remain: number) =>
      `Total ${total} · reserved ${reserved} · used ${used} · remaining ${remain}`,
    devBank: 'Development placeholders: this is NOT a real bank account. Do not transfer money.',
    sheetHeader: ['Contract', 'Launched by', 'Launched at', 'State', 'Settled at', 'Package'],
    calcQuantity: 'Number of signings',
    calcUnitPrice: 'Price per signing (CNY)',
  },
  'zh-CN': {
    buy: '购买',
    copies: '份数',
    checkout: '去结算',
    confirm: '确认收款',
    paid: '已支付',
    awaiting: '待支付',
    export: '导出',
    used: '已使用',
    reserved: '占用中',
    quantities: (total: number, reserved: number, used: number, remain: number) =>
      `总数 ${total} · 占用 ${reserved} · 已用 ${used} · 剩余 ${remain}`,
    devBank: '开发环境占位信息：这不是真实的银行账户，请勿转账。',
    sheetHeader: ['合同', '发起人', '发起时间', '状态', '结算时间', '套餐'],
    calcQuantity: '签署份数',
    calcUnitPrice: '每份价格（元）',
  },
} as const;
