import type { Text } from '../../http/texts.ts';
import { countOf } from '#contract/plural.ts';

/** What buying still needs, named for the refusal message (SPEC §6). */
export const REQUIREMENT_TEXTS: Record<string, Text> = {
  caCert: { en: 'a digital certificate', zh: '数字证书' },
  seal: { en: 'a seal', zh: '印章' },
  operator: { en: 'an operator', zh: '经办人' },
  companyAdmin: { en: "the company administrator's role", zh: '企业管理员身份' },
};

/** Messages of the package module, both languages. */
export const P = {
  missing: (names: Text[]): Text => ({
    en: `to buy a package you still need ${names.map((n) => n.en).join(', ')}`,
    zh: `购买套餐还缺少：${names.map((n) => n.zh).join('、')}`,
  }),
  packageNotFound: { en: 'package not found', zh: '套餐不存在' },
  packageNotOnSale: { en: 'this package is not on sale', zh: '该套餐未在售' },
  groupOnlyType20: {
    en: 'group purchase is for unified purchase and distribution packages (type 20) only',
    zh: '团购仅适用于统购统配（20）类套餐',
  },
  type20IsGroup: {
    en: 'unified purchase and distribution packages (type 20) are bought by group purchase',
    zh: '统购统配（20）类套餐请通过团购购买',
  },
  groupNeedsCompany: {
    en: 'a group purchase is made by a company: switch to your company account',
    zh: '团购须以企业身份进行，请切换到企业账号',
  },
  groupTooMany: (total: number, asked: number): Text => ({
    en: `you distribute ${countOf(asked, 'signing', 'signings')} but buy only ${total}`,
    zh: `分配的签署份数（${asked}）超过了购买的份数（${total}）`,
  }),
  groupUnknownCompany: (code: string): Text => ({
    en: `no verified company with the credit code ${code} on this platform`,
    zh: `平台上没有统一社会信用代码为 ${code} 的已认证企业`,
  }),
  groupDuplicateCompany: (code: string): Text => ({
    en: `the company ${code} is named twice`,
    zh: `企业 ${code} 重复出现`,
  }),
  orderNotFound: { en: 'order not found', zh: '订单不存在' },
  alreadyPaid: { en: 'this order is already paid', zh: '该订单已支付' },
  orderNotAwaiting: (status: string): Text => ({
    en: `this order does not await payment (it is ${status.replace('_', ' ')})`,
    zh: `该订单不在待支付状态（当前：${STATUS_ZH[status] ?? status}）`,
  }),
  orderNotPaid: { en: 'only a paid order can be refunded', zh: '只有已支付的订单可以退款' },
  tierOrder: {
    en: 'tiers need distinct minimum copies',
    zh: '阶梯价的起购份数不能重复',
  },
};

const STATUS_ZH: Record<string, string> = {
  awaiting_payment: '待支付',
  paid: '已支付',
  cancelled: '已取消',
  refunded: '已退款',
  expired: '已过期',
};

/** Messages of online payment (WeChat Pay, Alipay). */
export const PAY = {
  offlineOnly: {
    en: 'this order is paid by bank transfer: follow the payment notes',
    zh: '该订单通过银行转账支付，请按付款说明操作',
  },
  onlineNotConfirmable: {
    en: 'this order is paid online: only the payment provider’s verified notification marks it paid',
    zh: '该订单为在线支付，只能由支付平台经验签的支付通知确认到账',
  },
  providerUnavailable: {
    en: 'the payment service could not be reached, please try again later',
    zh: '支付服务暂时无法连接，请稍后再试',
  },
  refundFailed: {
    en: 'the payment provider did not accept the refund; nothing was changed, please try again later',
    zh: '支付平台未受理退款，订单未作更改，请稍后再试',
  },
} as const;
