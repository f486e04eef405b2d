// Texts of reassign, deadline change and copy link (issue 29), in both languages.
import { countOf } from '#contract/plural.ts';
import type { Text } from '../../http/texts.ts';

export const R = {
  forbidden: {
    en: 'the sender does not allow this signer to hand the signing to someone else',
    zh: '发起方不允许该签署方转交签署',
  },
  partySigned: {
    en: 'this signer has already signed: it cannot be handed over',
    zh: '该签署方已签署，不能转交',
  },
  partyRefused: {
    en: 'this signer has refused or the flow ended for it: it cannot be handed over',
    zh: '该签署方已拒签或已结束，不能转交',
  },
  personTarget: {
    en: 'give the new signer’s name and phone',
    zh: '请填写新签署人的姓名和手机号',
  },
  companyTarget: {
    en: 'choose an administrator or contract handler of the company',
    zh: '请选择该企业的管理员或合同经办人',
  },
  notHandler: {
    en: 'the new signer must be an active administrator or contract handler of the same company',
    zh: '新经办人必须是同一企业在职的管理员或合同经办人',
  },
  companyNotOpened: {
    en: 'the company has not opened e-signature yet: its handler cannot be changed',
    zh: '该企业尚未开通电子签章，不能更换经办人',
  },
  tooMany: (n: number): Text => ({
    en: `this signer has been handed over ${countOf(n, 'time', 'times')} already: it cannot be handed over again`,
    zh: `该签署方已转交 ${n} 次，不能再转交`,
  }),
  samePerson: { en: 'the new signer is the current signer', zh: '新签署人与当前签署人相同' },
  notYourParty: { en: 'you are not this signer of the flow', zh: '您不是该流程的此签署方' },
  linkHandedOver: (to: string): Text => ({
    en: `this signing link no longer works: the signing was handed over to ${to}`,
    zh: `该签署链接已失效：签署已转交给${to}`,
  }),
  roomHandedOver: (to: string): Text => ({
    en: `this signing room is closed: the signing was handed over to ${to}`,
    zh: `签署会话已关闭：签署已转交给${to}`,
  }),
  deadlineTooSoon: {
    en: 'the new deadline must be at least one hour from now',
    zh: '新的截止时间至少要在一小时之后',
  },
  deadlineTooLate: (days: number): Text => ({
    en: `the new deadline must be within ${countOf(days, 'day', 'days')}`,
    zh: `新的截止时间不能超过 ${days} 天`,
  }),
  deadlineSame: { en: 'this is already the deadline', zh: '与当前截止时间相同' },
  linkNotNow: {
    en: 'a link can be copied only for a signer whose turn it is and who has not signed yet',
    zh: '只能为已轮到且尚未签署的签署方复制链接',
  },
  linkHeld: {
    en: 'the contract waits for its launch approval: no link can be copied yet',
    zh: '合同正在等待发起审批，暂不能复制签署链接',
  },
  /** Notice to the old signer and the launcher. */
  reassignedNotice: (flowTitle: string, by: string, to: string) => ({
    title: `签署已转交 Handed over: ${flowTitle}`,
    text:
      `【电子签章】《${flowTitle}》的签署已由${by}转交给${to}，原签署链接已失效。` +
      ` [e-Sign] ${by} handed the signing of "${flowTitle}" to ${to}; the earlier signing link no longer works.`,
  }),
  deadlineNotice: (flowTitle: string, deadline: string) => ({
    title: `截止时间变更 Deadline changed: ${flowTitle}`,
    text:
      `【电子签章】《${flowTitle}》的签署截止时间已变更为${deadline}（北京时间）。` +
      ` [e-Sign] The signing deadline of "${flowTitle}" is now ${deadline} (Beijing time, UTC+8).`,
  }),
};
