import { defineTexts } from '@/i18n/i18n-store.ts';

export const readinessTexts = defineTexts({
  'en-US': {
    hasAccount: 'Has an account',
    noAccount: 'No account yet',
    realName: 'Real name verified',
    noRealName: 'No real name yet',
    certificate: 'Has a certificate',
    noCertificate: 'No certificate yet',
    companyOpen: 'Company opened',
    companyNotOpen: 'Company not opened',
    ready: 'Ready to sign.',
    willOnboard: 'The signing room will take them through what is missing before they sign.',
    addMyself: 'Add myself',
    inviteToOpen: 'Invite this company: its handler opens e-signature in the signing room, then seals',
  },
  'zh-CN': {
    hasAccount: '已注册',
    noAccount: '未注册',
    realName: '已实名',
    noRealName: '未实名',
    certificate: '已有证书',
    noCertificate: '暂无证书',
    companyOpen: '企业已开通',
    companyNotOpen: '企业未开通',
    ready: '可直接签署。',
    willOnboard: '签署室会在签署前引导其完成缺少的步骤。',
    addMyself: '添加我自己',
    inviteToOpen: '邀请该企业：经办人在签署室内开通电子签章后盖章',
  },
});
