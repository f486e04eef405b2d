import type { Text } from '../../http/texts.ts';
import type { RefusedRange } from './address-guard.ts';

const RANGE_NAMES: Record<RefusedRange, Text> = {
  unspecified: { en: 'an unspecified ("this network") address', zh: '未指定地址（本网络）' },
  loopback: { en: 'a loopback address', zh: '本机回环地址' },
  private: { en: 'a private network address', zh: '内网私有地址' },
  'link-local': { en: 'a link-local address', zh: '链路本地地址' },
  shared: { en: 'a carrier-grade NAT address', zh: '运营商级 NAT 共享地址' },
  'unique-local': { en: 'a unique-local IPv6 address', zh: 'IPv6 唯一本地地址' },
  'site-local': { en: 'a site-local IPv6 address', zh: 'IPv6 站点本地地址' },
  multicast: { en: 'a multicast address', zh: '组播地址' },
  'embedded-ipv4': {
    en: 'an IPv6 address that carries an IPv4 address (IPv4-mapped, NAT64, 6to4 or Teredo), which can lead to an internal network',
    zh: '内嵌 IPv4 地址的 IPv6 地址（IPv4 映射、NAT64、6to4 或 Teredo），可能通向内部网络',
  },
  reserved: { en: 'a reserved address', zh: '保留地址' },
};

/** Texts of the webhook module, in both languages. */
export const W = {
  endpointNotFound: { en: 'webhook endpoint not found', zh: '回调地址不存在' },
  deliveryNotFound: { en: 'webhook delivery not found', zh: '回调投递记录不存在' },
  httpsOnly: {
    en: 'a webhook URL must use https',
    zh: '回调地址须使用 https',
  },
  notPublic: (host: string, address: string, range: RefusedRange): Text => ({
    en: `a webhook URL must reach a public address: ${host} is ${address}, ${RANGE_NAMES[range].en}`,
    zh: `回调地址须为公网地址：${host} 对应 ${address}，属于${RANGE_NAMES[range].zh}`,
  }),
  unresolvable: (host: string): Text => ({
    en: `the webhook URL's host ${host} could not be resolved`,
    zh: `无法解析回调地址的主机名 ${host}`,
  }),
  tooMany: (max: number): Text => ({
    en: `an account has at most ${max} webhook endpoints`,
    zh: `每个账号最多 ${max} 个回调地址`,
  }),
} as const;
