import { defineTexts } from '@/i18n/i18n-store.ts';

/** Texts of the room's onboarding steps (nameAuthentication, userAgreement) and the room's hint about them. */
export const onboardingTexts = defineTexts({
  'en-US': {
    nameTitle: 'Confirm your real name',
    nameIntro:
      'Signing needs a digital certificate in your real name. Confirm your name and ID number once; your phone is already verified.',
    name: 'Full name',
    idNumber: 'ID card number',
    phone: 'Phone (verified)',
    nameRequired: 'Enter your full name',
    idRequired: 'Enter your 18-character ID card number',
    devProvider: 'Development identity provider: any well-formed identity passes. Not for real people.',
    next: 'Next',
    agreementTitle: 'Certificate usage agreement',
    agreementIntro: 'Your certificate is issued when you accept the agreement below.',
    accept: 'Accept and get my certificate',
    issued: 'Certificate issued. Back to the document…',
    stepOf: 'Step {n} of 2',
    roomHint:
      'Before your first signature you confirm your real name and receive a certificate, here in the signing room (about a minute).',
    backToRoom: 'Back to the document',
  },
  'zh-CN': {
    nameTitle: '确认实名信息',
    nameIntro: '签署需要以您实名申请的数字证书。请确认一次姓名和身份证号；您的手机号已验证。',
    name: '姓名',
    idNumber: '身份证号',
    phone: '手机号（已验证）',
    nameRequired: '请输入姓名',
    idRequired: '请输入 18 位身份证号',
    devProvider: '开发环境身份核验：格式正确的身份信息均可通过，不可用于真实人员。',
    next: '下一步',
    agreementTitle: '数字证书使用协议',
    agreementIntro: '同意以下协议后，将为您签发数字证书。',
    accept: '同意并申请证书',
    issued: '证书已签发，正在返回文件…',
    stepOf: '第 {n} 步，共 2 步',
    roomHint: '首次签署前，您将在签署室内确认实名信息并获得数字证书（约一分钟）。',
    backToRoom: '返回文件',
  },
});
