import { type APIRequestContext, type Page, expect } from '@playwright/test';
import { CREDIT_CODE_ALPHABET, creditCodeCheckChar } from '../contract/rules/credit-code.ts';
import { KEY_SUFFIX_HEADER, keySuffixOf, TOKEN_COOKIE, XSRF_HEADER } from '../contract/transport.ts';
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

/** Registers a person through the API with the page's request context (cookies shared with the page). */
export async function registerPerson(page: Page): Promise<string> {
  const phone = newPhone();
  await call(page.request, 'sendSmsCode', { phone, purpose: 'register' });
  const smsCode = await latestSmsCode(page.request, phone);
  await call(page.request, 'userRegister', { phone, password: PASSWORD, smsCode });
  return phone;
}

function newCreditCode(): string {
  let body = '91330106';
  for (let i = 0; i < 9; i++) body += CREDIT_CODE_ALPHABET[Math.floor(Math.random() * 31)];
  return body + creditCodeCheckChar(body);
}

/**
 * Opens a verified company through the company module's real calls, the page's person as its legal
 * representative and administrator (the development bank's micro-payment read from the dev outbox), and
 * switches the page's session to the company.
 */
export async function openCompany(
  page: Page,
  name: string,
): Promise<{ companyId: string; creditCode: string }> {
  const creditCode = newCreditCode();
  const applied = await call<{ companyId: string }>(page.request, 'applyCompanyEsign', {
    companyName: name,
    creditCode,
    legalRepName: '张三',
    applicantRole: 'legal_rep',
  });
  const companyId = applied.companyId;
  await call(page.request, 'sendCompanyMicroPayment', { companyId });
  let amount = '';
  await expect
    .poll(async () => {
      const res = await page.request.get(`/v1/dev/outbox?phone=${encodeURIComponent(`bank:${creditCode}`)}`);
      const body = (await res.json()) as { data: { text: string }[] };
      amount = /(\d+\.\d{2}) CNY/.exec(body.data[0]?.text ?? '')?.[1] ?? '';
      return amount;
    })
    .toMatch(/^\d+\.\d{2}$/);
  await call(page.request, 'confirmCompanyMicroPayment', { companyId, amount });
  await call(page.request, 'switchAccount', { targetUserType: 1, companyId });
  return { companyId, creditCode };
}

/**
 * The administrator (page) invites the person with `phone` to be an operator of the session company, and
 * that person (operator, logged in) accepts: operators are invited, not added (issue 6).
 */
export async function addOperator(admin: Page, operator: Page, phone: string): Promise<void> {
  const { invitationId } = await call<{ invitationId: string }>(admin.request, 'addCompanyOperator', {
    userType: 1,
    phone,
  });
  await call(operator.request, 'answerCompanyInvitation', { invitationId, isAccepted: true });
}

/** Switches the page's session to act for the company (as its operator). */
export async function actForCompany(page: Page, companyId: string): Promise<void> {
  await call(page.request, 'switchAccount', { targetUserType: 1, companyId });
}

/**
 * A finger stroke on an element: real touch input through the DevTools protocol (Chromium turns it into
 * pointer events of type "touch", as a phone does). Points are fractions of the element's box.
 */
export async function fingerStroke(page: Page, selector: string, points: [number, number][]): Promise<void> {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not visible`);
  const at = ([fx, fy]: [number, number]) => ({ x: box.x + fx * box.width, y: box.y + fy * box.height });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at(points[0])] });
  for (const p of points.slice(1)) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [at(p)] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

export const sealTexts = {
  'en-US': {
    addSeal: 'Add a seal',
    contractSeal: 'Contract seal',
    save: 'Save seal',
    preview: 'Preview',
    enabled: 'Enabled',
    usable: 'Usable',
    authorise: 'Authorise to operators',
    authoriseSubmit: 'Authorise',
    getCode: 'Get code',
    smsCode: 'SMS code',
    inEffect: 'In effect',
    companyTitle: 'Company seals',
    drawTab: 'Draw a signature',
    pad: 'Signature pad: draw your signature with a finger or the mouse',
    saveSignature: 'Save signature',
    drawn: 'Handwritten signature',
    personTitle: 'Personal seals',
    padEmpty: 'Draw your signature first',
    undo: 'Undo',
  },
  'zh-CN': {
    addSeal: '新增印章',
    contractSeal: '合同专用章',
    save: '保存印章',
    preview: '预览',
    enabled: '已启用',
    usable: '可用',
    authorise: '授权给经办人',
    authoriseSubmit: '授权',
    getCode: '获取验证码',
    smsCode: '验证码',
    inEffect: '生效中',
    companyTitle: '企业印章',
    drawTab: '手写签名',
    pad: '签名板：用手指或鼠标书写您的签名',
    saveSignature: '保存签名',
    drawn: '手写签名',
    personTitle: '个人印章',
    padEmpty: '请先书写签名',
    undo: '撤销一笔',
  },
} as const;
