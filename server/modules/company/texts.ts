import type { Text } from '../../http/texts.ts';
import { countOf } from '#contract/plural.ts';

/** Messages of the company module, both languages. */
export const C = {
  registerCheckUnavailable: {
    en: 'the business register check could not be reached, please try again later',
    zh: '工商信息核验服务暂时无法连接，请稍后再试',
  },
  notActingForCompany: {
    en: 'this call acts for a company: switch to a company account first',
    zh: '该操作需以企业身份进行，请先切换到企业账号',
  },
  creditCodeTaken: {
    en: 'a company with this unified social credit code has already opened e-signature',
    zh: '该统一社会信用代码的企业已开通电子签章',
  },
  applyNotFound: { en: 'no such company application of yours', zh: '未找到您的企业开户申请' },
  applyNotPending: {
    en: 'this application is no longer waiting for verification',
    zh: '该申请已不在待认证状态',
  },
  letterRequired: {
    en: 'an agent must upload the power-of-attorney letter first',
    zh: '经办人需先上传授权委托书',
  },
  paymentNotSent: {
    en: 'no micro-payment is waiting: send the payment first',
    zh: '没有待确认的打款，请先发起打款',
  },
  amountWrong: (left: number): Text => ({
    en: `the amount does not match; ${countOf(left, 'attempt', 'attempts')} left`,
    zh: `金额不正确，还可尝试 ${left} 次`,
  }),
  amountWrongRestart: {
    en: 'the amount was wrong 3 times: send a new micro-payment and start again',
    zh: '金额已连续 3 次错误，请重新发起打款',
  },
  fileRequired: { en: 'choose a file to upload', zh: '请选择要上传的文件' },
  fileType: {
    en: 'the letter must be a PNG, JPG or PDF file',
    zh: '授权委托书只能是 PNG、JPG 或 PDF 文件',
  },
  fileTooLarge: { en: 'the letter must not be larger than 10 MB', zh: '授权委托书不能超过 10 MB' },
  companyNotFound: { en: 'no such company', zh: '未找到该企业' },
  inviteCodeInvalid: { en: 'this invitation code is not valid', zh: '邀请码无效' },
  alreadyMember: { en: 'you are already a member of this company', zh: '您已是该企业成员' },
  alreadyRequested: {
    en: 'you have already asked to join this company; wait for the administrator',
    zh: '您已申请加入该企业，请等待管理员审核',
  },
  memberDisabled: {
    en: 'your membership of this company is disabled; ask its administrator',
    zh: '您在该企业的成员身份已被停用，请联系企业管理员',
  },
  memberNotFound: { en: 'no such member of your company', zh: '未找到该企业成员' },
  memberWrongState: {
    en: 'this member is not in a state that allows this action',
    zh: '该成员当前状态不允许此操作',
  },
  alreadyOperator: { en: 'this user is already a member of the company', zh: '该用户已是企业成员' },
  notYourself: { en: 'you cannot do this to yourself', zh: '不能对自己执行此操作' },
  handOverTarget: {
    en: 'the administrator role can only go to an active operator',
    zh: '管理员只能移交给已启用的经办人',
  },
  notMemberOf: {
    en: 'you are not an active member of this company',
    zh: '您不是该企业的有效成员',
  },
  needCompanyId: { en: 'choose the company to switch to', zh: '请选择要切换的企业' },
  joinTarget: { en: 'give a company or an invitation code', zh: '请选择企业或输入邀请码' },
  invitationNotFound: { en: 'no such invitation', zh: '未找到该邀请' },
  invitationExpired: {
    en: 'this invitation has expired; ask the administrator to send it again',
    zh: '该邀请已过期，请联系企业管理员重新发送',
  },
  invitationAnswered: {
    en: 'this invitation is no longer open (answered or withdrawn)',
    zh: '该邀请已处理或已撤回',
  },
  invitationNotPending: {
    en: 'only a pending invitation can be withdrawn',
    zh: '只能撤回待接受的邀请',
  },
  invitationAlreadyMember: {
    en: 'you are already a member of this company',
    zh: '您已是该企业成员',
  },
  invitationAccountInactive: {
    en: 'this account cannot join a company',
    zh: '该账号不能加入企业',
  },
  invitesTooMany: {
    en: 'too many invitations sent; try again in an hour',
    zh: '发送邀请过于频繁，请一小时后再试',
  },
  handoverSame: {
    en: 'choose another member to receive the work',
    zh: '请选择另一名成员接收工作',
  },
  handoverNeedsHandler: {
    en: 'work can only be handed to an active member holding the contract handler role',
    zh: '工作只能交接给拥有合同经办人角色的在职成员',
  },
  pickerTooMany: {
    en: 'too many member and signer look-ups; try again in an hour',
    zh: '查询成员或签署人过于频繁，请一小时后再试',
  },
} satisfies Record<string, Text | ((left: number) => Text)>;
