import type { Text } from '../../http/texts.ts';
import { countOf } from '#contract/plural.ts';

/** Messages of the session module, both languages. */
export const S = {
  // Told only after an SMS code proved the phone (issue 16); the client links to the login / register page.
  phoneTaken: {
    en: 'this phone number already has an account: please log in (or reset the password if you forgot it)',
    zh: '该手机号已有账号，请直接登录（忘记密码可找回）',
  },
  phoneNotRegistered: {
    en: 'this phone number has no account yet: please register first',
    zh: '该手机号尚未注册账号，请先注册',
  },
  badCredentials: { en: 'phone number or password is wrong', zh: '手机号或密码错误' },
  smsInvalid: { en: 'the SMS code is wrong, expired or already used', zh: '短信验证码错误、已过期或已使用' },
  smsTooMany: {
    en: 'too many SMS codes requested, please try again later',
    zh: '验证码请求过于频繁，请稍后再试',
  },
  loginTooMany: { en: 'too many login attempts, please try again later', zh: '登录尝试过于频繁，请稍后再试' },
  noCompany: {
    en: 'this account belongs to no company yet: create or join a company first',
    zh: '该账号尚未加入任何企业，请先创建或加入企业',
  },
  resendWait: (seconds: number): Text => ({
    en: `please wait ${seconds} s before requesting another code`,
    zh: `请在 ${seconds} 秒后再获取验证码`,
  }),
  smsLocked: (minutes: number): Text => ({
    en: `too many wrong SMS codes: codes for this phone are locked for ${countOf(minutes, 'minute', 'minutes')}`,
    zh: `短信验证码错误次数过多，该手机号的验证码已锁定 ${minutes} 分钟`,
  }),
} satisfies Record<string, Text | ((n: number) => Text)>;
