import { defineTexts } from '@/i18n/i18n-store.ts';

/** Texts of void by agreement (issue 29): the detail's panel, the lists' tags. */
export const rescissionTexts = defineTexts({
  'en-US': {
    voidedOn: 'Voided by agreement on {date}',
    rescissionTag: 'Rescission agreement',
    voidAction: 'Void by agreement',
    voidTitle: 'Void this contract by agreement',
    voidExplain:
      'A rescission agreement naming this contract (title, parties, SHA-256 of each signed document) is drafted and sent to the same parties, in the same order. The contract is voided only once every party has signed it; nothing is deleted, and the signed PDF stays valid and downloadable.',
    reason: 'Reason for voiding',
    reasonTooShort: 'Enter the reason (at least 2 characters)',
    confirm: 'I understand: every party must sign the rescission agreement',
    send: 'Send the rescission agreement',
    close: 'Close',
    sent: 'The rescission agreement was sent to the parties',
    voidedBanner: 'This contract was voided by agreement on {date}.',
    openRescission: 'Open the rescission agreement',
    isRescission: 'This is the rescission agreement of “{title}”.',
    openOriginal: 'Open the original contract',
    openBanner: 'A rescission agreement of this contract is being signed.',
    history: 'Earlier rescission agreements',
  },
  'zh-CN': {
    voidedOn: '已于 {date} 协议作废',
    rescissionTag: '解除协议',
    voidAction: '协议作废',
    voidTitle: '协议作废本合同',
    voidExplain:
      '系统将起草一份解除协议（写明本合同的标题、签署方及各已签署文件的 SHA-256），按原顺序发送给相同的签署方。全部签署方签署解除协议后，本合同才作废；不会删除任何内容，已签署的 PDF 仍然有效且可下载。',
    reason: '作废原因',
    reasonTooShort: '请输入作废原因（至少 2 个字）',
    confirm: '我已了解：解除协议需全部签署方签署',
    send: '发送解除协议',
    close: '关闭',
    sent: '解除协议已发送给各签署方',
    voidedBanner: '本合同已于 {date} 协议作废。',
    openRescission: '查看解除协议',
    isRescission: '这是《{title}》的解除协议。',
    openOriginal: '查看原合同',
    openBanner: '本合同有一份解除协议正在签署中。',
    history: '以往的解除协议',
  },
});
