import { defineTexts } from '@/i18n/i18n-store.ts';

/** Where each party stands (issue 11): the launcher's view of sent, opened, onboarding, signed, refused. */
export const progressTexts = defineTexts({
  'en-US': {
    'progress.waiting': 'Waiting for an earlier step',
    'progress.sent': 'Sent',
    'progress.opened': 'Opened',
    'progress.onboarding': 'Onboarding',
    'progress.signed': 'Signed',
    'progress.refused': 'Refused',
    'progress.closed': 'Closed',
    sentAt: 'sent {time}',
    openedAt: 'opened {time}',
    onboardingAt: 'onboarding since {time}',
    signedAt: 'signed {time}',
    refusedAt: 'refused {time}',
    stopped: 'Onboarding stopped: {problem}',
  },
  'zh-CN': {
    'progress.waiting': '等待前序签署',
    'progress.sent': '已发送',
    'progress.opened': '已查看',
    'progress.onboarding': '认证中',
    'progress.signed': '已签署',
    'progress.refused': '已拒签',
    'progress.closed': '已关闭',
    sentAt: '{time} 发送',
    openedAt: '{time} 查看',
    onboardingAt: '{time} 开始认证',
    signedAt: '{time} 签署',
    refusedAt: '{time} 拒签',
    stopped: '认证未通过：{problem}',
  },
});
