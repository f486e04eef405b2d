import type { Text } from '../../http/texts.ts';

/** Messages of the certificate-change module, both languages. */
export const X = {
  noCertificate: {
    en: 'there is no valid certificate to change: open e-signature first to get one',
    zh: '当前没有有效的数字证书可变更：请先开通电子签章申请证书',
  },
  needRealName: {
    en: 'complete real-name verification first: a certificate carries your verified name',
    zh: '请先完成实名认证：数字证书使用您认证的姓名',
  },
  personNameUnchanged: {
    en:
      'your verified name is the same as the name in your certificate. To change your name, first complete ' +
      'real-name verification again with your new name; then revoke and reissue with the reason "name changed"',
    zh: '您认证的姓名与证书中的姓名相同。如需更改姓名，请先用新姓名重新完成实名认证，再以“名称变更”为原因吊销并重新签发证书',
  },
  companyNameUnchanged: {
    en:
      "the company's name is the same as the name in its certificate. A changed company name must first be " +
      'updated through company verification; then revoke and reissue with the reason "name changed"',
    zh: '企业名称与证书中的名称相同。企业更名须先通过企业认证更新名称，再以“名称变更”为原因吊销并重新签发证书',
  },
  companyMissing: { en: 'the company of this session was not found', zh: '未找到当前会话的企业' },
  issueFailed: (detail: string): Text => ({
    en: `the new certificate could not be issued: ${detail}`,
    zh: `新证书签发失败：${detail}`,
  }),
} as const;
