import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, expect } from '@playwright/test';

/** A value for every parameter of a route pattern, to open each route of the spec (fillPath). */
export const ROUTE_SAMPLES: Record<string, string> = {
  params: 'abc',
  openFlag: '1',
  personCode: 'p1',
  token: 't1',
  result: '1',
  businessCode: 'b1',
  deviceType: 'pc',
  signUrl: 'x',
  linkType: '1',
  linkCode: 'c1',
  oxqSignValue: 'v1',
  ccToken: 'cc1',
  next: '1',
  invitationId: 'i1',
  approvalId: '00000000-0000-4000-8000-0000000000a1',
};

/** A fresh mainland mobile number for one journey. */
export function newPhone(): string {
  return `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
}

/** The latest SMS code sent to a phone (of one purpose), read from the development outbox of the real server. */
export async function latestSmsCode(
  request: APIRequestContext,
  phone: string,
  purpose?: string,
): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const res = await request.get(`/v1/dev/outbox?phone=${phone}`);
      const body = (await res.json()) as { data: { code: string | null; purpose: string }[] };
      code = body.data.find((m) => m.code && (!purpose || m.purpose === purpose))?.code ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code;
}

export const texts = {
  'en-US': {
    phone: 'Phone',
    password: 'Password',
    confirmPassword: 'Confirm password',
    smsCode: 'SMS code',
    getCode: 'Get code',
    register: 'Register',
    logIn: 'Log in',
    logOut: 'Log out',
  },
  'zh-CN': {
    phone: '手机号',
    password: '密码',
    confirmPassword: '确认密码',
    smsCode: '验证码',
    getCode: '获取验证码',
    register: '注册',
    logIn: '登录',
    logOut: '退出登录',
  },
} as const;
export type Locale = keyof typeof texts;

/** pdfsig's verdict on every signature of a file: "Signature is Valid." for each one. */
export function pdfsigValidity(bytes: Buffer): string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'esign-pdfsig-')), 'signed.pdf');
  writeFileSync(file, bytes);
  let out = '';
  try {
    out = execFileSync('pdfsig', [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    // pdfsig exits non-zero when a certificate is not trusted by its (empty) NSS store; the output still says.
    out = String((e as { stdout?: string }).stdout ?? '');
  }
  return [...out.matchAll(/- Signature Validation: (.+)/g)].map((m) => m[1].trim());
}
