import type { Text } from '../../http/texts.ts';

/** Messages of the authorisation module, both languages. */
export const A = {
  letterNotFound: { en: 'authorisation letter not found', zh: '授权书不存在' },
  sealNotFound: {
    en: 'a chosen seal is not an enabled seal of this company',
    zh: '所选印章不是本企业已启用的印章',
  },
  oneSealForAutoSign: {
    en: 'an automatic-signing letter authorises exactly one company seal (not the legal-person seal)',
    zh: '自动签署授权书只能授权一枚企业印章（不能是法定代表人章）',
  },
  needScope: {
    en: 'choose at least one template or API key whose contracts are signed automatically',
    zh: '请至少选择一个模板或 API 密钥，其发起的合同将自动签署',
  },
  templateNotFound: { en: 'a chosen template is not one of this company', zh: '所选模板不属于本企业' },
  keyNotFound: {
    en: 'a chosen API key is not a live key of this company',
    zh: '所选 API 密钥不是本企业的有效密钥',
  },
  badPeriod: {
    en: 'the period must end after it starts, in the future, and last at most three years',
    zh: '有效期的结束时间须晚于开始时间、晚于现在，且不超过三年',
  },
  needGrantee: { en: 'choose the operator to authorise', zh: '请选择被授权的经办人' },
  needGranteeCompany: { en: 'name the company to authorise', zh: '请填写被授权的企业' },
  granteeCompanyNotFound: {
    en: 'no verified company has this name',
    zh: '没有该名称的已认证企业',
  },
  notOwnCompany: { en: 'a company cannot grant its seals to itself', zh: '企业不能授权给自身' },
  noCompanyCertificate: {
    en: 'the company has no valid certificate to sign the letter with',
    zh: '企业没有可用于签署授权书的有效证书',
  },
  alreadyRevoked: { en: 'this letter is already revoked', zh: '该授权书已撤销' },
  notPending: { en: 'this letter is not waiting for acceptance', zh: '该授权书无需接受' },
  notForYou: { en: 'only the granted company accepts this letter', zh: '只有被授权企业可以接受该授权书' },
} satisfies Record<string, Text>;

/** What each kind of letter grants, for the letter PDF (both languages on the page). */
export const KIND_TITLE = {
  member: '印章使用授权书 Seal Use Authorisation Letter',
  auto_sign: '自动签署授权书 Automatic Signing Authorisation Letter',
  company: '企业间印章授权书 Inter-company Seal Authorisation Letter',
} as const;
