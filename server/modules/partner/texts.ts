import type { Text } from '../../http/texts.ts';

/** Messages of partner and central-platform login, both languages. */
export const P = {
  tokenMissing: { en: 'the partner login link carries no jsToken', zh: '合作平台登录链接缺少 jsToken' },
  tokenMalformed: {
    en: 'the partner login token is malformed (not a signed token with the required fields)',
    zh: '合作平台登录令牌格式错误（不是含必需字段的签名令牌）',
  },
  partnerUnknown: {
    en: 'the partner login token comes from a platform that is not configured here',
    zh: '合作平台登录令牌来自未在本平台配置的平台',
  },
  signatureInvalid: {
    en: 'the partner login token has an invalid signature',
    zh: '合作平台登录令牌签名无效',
  },
  expired: {
    en: 'the partner login token has expired, please open the link from the partner platform again',
    zh: '合作平台登录令牌已过期，请从合作平台重新进入',
  },
  tooLong: {
    en: 'the partner login token lives longer than the 5 minutes allowed',
    zh: '合作平台登录令牌有效期超过允许的 5 分钟',
  },
  notYetValid: {
    en: 'the partner login token is not valid yet (check the partner server clock)',
    zh: '合作平台登录令牌尚未生效（请检查合作平台服务器时间）',
  },
  audience: {
    en: 'the partner login token is meant for another platform',
    zh: '合作平台登录令牌不是发给本平台的',
  },
  replayed: {
    en: 'this partner login token was already used, please open the link from the partner platform again',
    zh: '该合作平台登录令牌已使用过，请从合作平台重新进入',
  },
  linkConflict: {
    en: 'the account of this phone number is already linked to another user of this partner platform',
    zh: '该手机号的账号已关联该合作平台的其他用户',
  },
  centralNotLoggedIn: {
    en: 'the central user centre reports no login, please log in',
    zh: '统一用户中心未登录，请先登录',
  },
  devKeyLocalOnly: (code: string): Text => ({
    en: `partner ${code} is configured with the public development key, which is accepted only on the machine the server runs on (a loopback address such as 127.0.0.1): open the link there, or configure the partner's own key (PARTNER_${code}_SECRET or PARTNER_${code}_PUBLIC_KEY)`,
    zh: `合作平台 ${code} 使用的是公开的开发用密钥，只接受服务器所在本机（127.0.0.1 等回环地址）的登录：请在本机打开链接，或配置该平台自己的密钥（PARTNER_${code}_SECRET 或 PARTNER_${code}_PUBLIC_KEY）`,
  }),
  devCentralLocalOnly: {
    en: 'the simulated central user centre (HY_CENTER=development) answers only on the machine the server runs on (a loopback address such as 127.0.0.1): log in there',
    zh: '模拟的统一用户中心（HY_CENTER=development）只响应服务器所在本机（127.0.0.1 等回环地址）的请求，请在本机登录',
  },
} satisfies Record<string, Text | ((code: string) => Text)>;
