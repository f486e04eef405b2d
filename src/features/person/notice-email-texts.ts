import { defineTexts } from '@/i18n/i18n-store.ts';

/** Texts of the notice e-mail setting (/personalDetails). */
export const texts = defineTexts({
  'en-US': {
    emailTitle: 'Notices by e-mail',
    emailIntro:
      'Signing requests, reminders, deadline notices, signatures, refusals, completions and expiries are also e-mailed to this address. Leave it empty to stop them.',
    emailLabel: 'E-mail address',
    emailLang: 'Language of the e-mails',
    langZh: '中文',
    langEn: 'English',
    save: 'Save',
    saved: 'Saved',
    notConfigured: 'This platform does not send e-mail at the moment; the address is kept for when it does.',
    badEmail: 'Enter a valid e-mail address',
  },
  'zh-CN': {
    emailTitle: '邮件通知',
    emailIntro: '签署邀请、提醒、截止提醒、签署、拒签、完成和过期通知也会发送到此邮箱。留空则不再发送。',
    emailLabel: '邮箱地址',
    emailLang: '邮件语言',
    langZh: '中文',
    langEn: 'English',
    save: '保存',
    saved: '已保存',
    notConfigured: '本平台目前未开通邮件发送；邮箱地址会保留，开通后即可收到邮件。',
    badEmail: '请输入有效的邮箱地址',
  },
});
