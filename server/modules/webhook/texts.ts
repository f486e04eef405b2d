import type { Text } from '../../http/texts.ts';

/** Texts of the webhook module, in both languages. */
export const W = {
  endpointNotFound: { en: 'webhook endpoint not found', zh: '回调地址不存在' },
  deliveryNotFound: { en: 'webhook delivery not found', zh: '回调投递记录不存在' },
  httpsOnly: {
    en: 'a webhook URL must use https',
    zh: '回调地址须使用 https',
  },
  tooMany: (max: number): Text => ({
    en: `an account has at most ${max} webhook endpoints`,
    zh: `每个账号最多 ${max} 个回调地址`,
  }),
} as const;
