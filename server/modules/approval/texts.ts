import type { Text } from '../../http/texts.ts';

const STATUS: Record<string, [string, string]> = {
  pending: ['待审批', 'waiting for approval'],
  approved: ['已同意', 'approved'],
  rejected: ['已驳回', 'rejected'],
  expired: ['已过期', 'expired'],
  void: ['已失效', 'void'],
  used: ['已使用', 'used'],
};
const statusText = (s: string) => STATUS[s] ?? [s, s];

/** Messages of the approval module, both languages. */
export const A = {
  sealNotFound: { en: 'no such seal of your company', zh: '未找到本企业的该印章' },
  approvalNotFound: { en: 'no such approval request', zh: '未找到该用印审批单' },
  notApprover: (name: string): Text => ({
    en: `${name} does not hold the approver role of the company`,
    zh: `${name}不是本企业的审批人`,
  }),
  needApprovers: {
    en: 'name at least one approver when uses need approval',
    zh: '需要审批时请至少指定一位审批人',
  },
  duplicateApprover: { en: 'an approver is named twice', zh: '审批人重复' },
  approvalRequired: {
    en: 'this seal needs an approval before it is used on this contract: ask for one first',
    zh: '该印章用于此合同前需经用印审批，请先申请审批',
  },
  approvalNotNeeded: {
    en: 'this seal needs no approval for this contract',
    zh: '该印章用于此合同无需审批',
  },
  policyCannotBeMet: {
    en: "an approver of this seal no longer holds the approver role: the administrator must change the seal's approval rule",
    zh: '该印章的审批人已不再担任审批人，请管理员修改用印审批规则',
  },
  cannotUseSeal: {
    en: 'you may not use this seal for this party',
    zh: '您无权为该签署方使用此印章',
  },
  notCompanyParty: {
    en: 'only a company party asks for seal approval',
    zh: '只有企业签署方需要申请用印审批',
  },
  tooManyRequests: {
    en: 'too many approval requests for this seal: please wait an hour',
    zh: '该印章的审批申请过于频繁，请一小时后再试',
  },
  notDecidable: (status: string): Text => ({
    en: `this request can no longer be decided: it is ${statusText(status)[1]}`,
    zh: `该审批单已无法处理：${statusText(status)[0]}`,
  }),
  notYourTurn: {
    en: 'an earlier approver has not approved yet: it is not your turn',
    zh: '前序审批人尚未同意，还未轮到您审批',
  },
  notAnApproverOfThis: { en: 'you are not an approver of this request', zh: '您不是该审批单的审批人' },
  alreadyDecided: { en: 'you have already decided this request', zh: '您已处理过该审批单' },
  ownRequest: {
    en: 'you may not approve your own request',
    zh: '不能审批自己提交的申请',
  },
  lostApproverRole: {
    en: 'you no longer hold the approver role of the company',
    zh: '您已不再担任本企业的审批人',
  },
  ownRequestOnly: {
    en: "this seal's approval would need your own decision, and you may not approve your own request: the administrator must name another approver or allow self-approval",
    zh: '该印章的审批需要您本人同意，但不能审批自己的申请：请管理员另行指定审批人或允许本人审批',
  },
  commentRequired: { en: 'say why you reject it', zh: '驳回时请填写原因' },
  noticeRequestedTitle: (seal: string): Text => ({ en: `Seal approval: ${seal}`, zh: `用印审批：${seal}` }),
  noticeRequested: (who: string, seal: string, title: string): Text => ({
    en: `${who} asks to apply the seal ${seal} to "${title}". Open the request to read the contract and decide.`,
    zh: `${who}申请在《${title}》上使用印章「${seal}」，请查看合同并审批。`,
  }),
  noticeDecidedTitle: (seal: string): Text => ({
    en: `Seal approval decided: ${seal}`,
    zh: `用印审批结果：${seal}`,
  }),
  noticeDecided: (status: string, seal: string, title: string, comment: string | null): Text => ({
    en: `Your request to apply the seal ${seal} to "${title}" is ${statusText(status)[1]}.${comment ? ` Comment: ${comment}` : ''}`,
    zh: `您在《${title}》上使用印章「${seal}」的申请${statusText(status)[0]}。${comment ? `意见：${comment}` : ''}`,
  }),
  launchPolicyCannotBeMet: {
    en: "an approver of the launch rule no longer holds the approver role: the administrator must change the company's launch approval rule",
    zh: '发起审批规则的审批人已不再担任审批人，请管理员修改发起审批规则',
  },
  launchOwnRequestOnly: {
    en: 'this launch would need your own approval, and you may not approve your own request: the administrator must name another approver or allow self-approval',
    zh: '该合同的发起审批需要您本人同意，但不能审批自己的申请：请管理员另行指定审批人或允许本人审批',
  },
  noticeLaunchRequestedTitle: { en: 'Launch approval', zh: '发起审批' },
  noticeLaunchRequested: (who: string, title: string): Text => ({
    en: `${who} launched "${title}", which waits for your approval before it is sent. Open the request to read the contract and decide.`,
    zh: `${who}发起了《${title}》，需经您审批后才会发送给签署方，请查看合同并审批。`,
  }),
  noticeLaunchDecidedTitle: { en: 'Launch approval decided', zh: '发起审批结果' },
  noticeLaunchDecided: (status: string, title: string, comment: string | null): Text => ({
    en: `Your launch of "${title}" is ${statusText(status)[1]}${status === 'approved' ? ': it has been sent to the signers.' : status === 'rejected' ? ': the flow is cancelled.' : '.'}${comment ? ` Comment: ${comment}` : ''}`,
    zh: `您发起的《${title}》审批${statusText(status)[0]}${status === 'approved' ? '，已发送给签署方。' : status === 'rejected' ? '，合同已撤销。' : '。'}${comment ? `意见：${comment}` : ''}`,
  }),
};

/** A bilingual text as one line (a notice's SMS and the /message list carry both languages). */
export const both = (t: Text) => `${t.zh} ${t.en}`;
