import type { Text } from '../../http/texts.ts';
import { D } from '../document/index.ts';
import { countOf } from '#contract/plural.ts';

/** Texts of the signing-flow module, in both languages (with the document module's, which flow answers too). */
export const F = {
  launchHeld: {
    en: 'this contract waits for the company’s launch approval: it can be signed once it is approved and sent',
    zh: '该合同正在等待企业的发起审批，审批通过并发送后才能签署',
  },
  ...D,
  approvalOnlyCompany: {
    en: "seal approval is asked for a company party's seal",
    zh: '只有企业签署方的印章需要申请用印审批',
  },
  intentSmsMissing: { en: 'enter the SMS code to confirm the signature', zh: '请输入短信验证码以确认签署' },
  intentFaceMissing: {
    en: 'pass the face check for this signature first (a passed check counts for 10 minutes, once)',
    zh: '请先完成本次签署的人脸识别（识别通过后 10 分钟内有效，仅可使用一次）',
  },
  intentNotFace: { en: 'this signer confirms by another check', zh: '该签署方不使用人脸识别确认意愿' },
  intentNeedsAccount: {
    en: 'complete the real-name step first',
    zh: '请先完成实名认证',
  },
  intentPasswordMissing: {
    en: 'this signature is confirmed by your signing password: enter it',
    zh: '本次签署需使用签署密码确认，请输入签署密码',
  },
  intentPasswordNotSet: {
    en: 'set your signing password first',
    zh: '请先设置签署密码',
  },
  intentPasswordWrong: (left: number): Text => ({
    en: `wrong signing password; ${countOf(left, 'attempt', 'attempts')} left before it is locked`,
    zh: `签署密码错误，再错 ${left} 次将被锁定`,
  }),
  intentPasswordLocked: (minutes: number): Text => ({
    en: `too many wrong signing passwords; try again in ${countOf(minutes, 'minute', 'minutes')}`,
    zh: `签署密码错误次数过多，请 ${minutes} 分钟后再试`,
  }),
  flowNotFound: { en: 'signing flow not found', zh: '签署流程不存在' },
  partyNotFound: { en: 'signer not found in this flow', zh: '该流程中没有此签署方' },
  quickNeedsOne: { en: 'a quick launch takes exactly one document', zh: '快速发起只能包含一个文件' },
  duplicateDocument: { en: 'the same document is listed twice', zh: '同一文件重复添加' },
  positionUnknownDocument: {
    en: 'a position names a document that is not in this flow',
    zh: '签署位置指向了不在本流程中的文件',
  },
  positionTwice: {
    en: 'a signer has two positions on the same document; give one per document',
    zh: '同一签署方在同一文件上有多个位置，每个文件只能设置一个',
  },
  pageOutOfRange: (page: number, pages: number): Text => ({
    en: `page ${page} does not exist (the document has ${countOf(pages, 'page', 'pages')})`,
    zh: `第 ${page} 页不存在（文件共 ${pages} 页）`,
  }),
  // Fields the signer fills (issue 28).
  aboutField: (label: string, text: Text): Text => ({
    en: `field "${label}": ${text.en}`,
    zh: `字段“${label}”：${text.zh}`,
  }),
  tooManyFieldsOfParty: {
    en: 'a signer has at most 50 fields to fill',
    zh: '每个签署方最多填写 50 个字段',
  },
  tooManyFieldsOfFlow: {
    en: 'a contract has at most 200 fields to fill',
    zh: '每份合同最多 200 个填写字段',
  },
  fieldKeyTwice: (key: string): Text => ({
    en: `the key "${key}" is used by two fields of this signer`,
    zh: `该签署方有两个字段使用了标识“${key}”`,
  }),
  fieldNeedsOptions: {
    en: 'a radio group or drop-down needs at least two options',
    zh: '单选或下拉字段至少需要两个选项',
  },
  fieldNoOptions: {
    en: 'only a radio group or drop-down has options',
    zh: '只有单选或下拉字段可以设置选项',
  },
  fieldOnUnsignedDocument: {
    en: 'place it on a document this signer signs',
    zh: '请将其放在该签署方签署的文件上',
  },
  fieldNotFound: { en: 'this field does not exist', zh: '该字段不存在' },
  fieldSigned: {
    en: 'it was signed already and cannot change',
    zh: '该字段已随签名写入文件，不能再修改',
  },
  fieldNotAttachment: { en: 'it takes no attachment', zh: '该字段不是附件字段' },
  attachmentEmpty: { en: 'the file is empty', zh: '文件为空' },
  attachmentTooLarge: (mb: number): Text => ({
    en: `the file is larger than ${mb} MB`,
    zh: `文件超过 ${mb} MB`,
  }),
  attachmentWrongType: {
    en: 'upload a PNG or JPEG image or a PDF',
    zh: '请上传 PNG、JPEG 图片或 PDF 文件',
  },
  fillFieldsFirst: {
    en: 'fill the fields in the signing room first',
    zh: '请先在签署页面填写字段',
  },
  formFieldsFailed: (name: string): Text => ({
    en: `the fields to fill could not be added to "${name}"`,
    zh: `无法在文件“${name}”中添加填写字段`,
  }),
  positionOffPage: { en: 'a signing position lies outside its page', zh: '签署位置超出了页面范围' },
  aboutSigner: (who: string, stepIndex: number, text: Text): Text => ({
    en: `signer ${who} (step ${stepIndex + 1}): ${text.en}`,
    zh: `签署方“${who}”（第 ${stepIndex + 1} 步）：${text.zh}`,
  }),
  keywordNotFound: (k: string): Text => ({
    en: `the keyword "${k}" was not found in the document`,
    zh: `文件中未找到关键字“${k}”`,
  }),
  companyUnknown: {
    en: 'the company is not a verified company of the platform',
    zh: '该企业不是平台上已认证的企业',
  },
  signerPhoneMissing: {
    en: 'enter the signer phone or choose the signer',
    zh: '请输入签署人手机号或选择签署人',
  },
  pickedSignerGone: {
    en: 'the chosen signer is no longer available (not a user, or no longer an active member of the company)',
    zh: '所选签署人已不可用（不是平台用户，或已不是该企业的在职成员）',
  },
  pickedSignerMismatch: {
    en: 'the phone does not belong to the chosen signer',
    zh: '手机号与所选签署人不符',
  },
  companyNeedsSomething: {
    en: 'a company signer must apply a company seal or the legal-person seal',
    zh: '企业签署方需要加盖企业印章或法定代表人章',
  },
  personAppliesSignature: {
    en: 'a person signer applies a person signature',
    zh: '个人签署方需要个人签名',
  },
  samePartyTwice: { en: 'the same signer appears twice in the flow', zh: '同一签署方在流程中出现了两次' },
  deadlineInPast: { en: 'the deadline must be in the future', zh: '截止时间必须晚于当前时间' },
  quotaExhausted: {
    en: 'no signings left in your quota: buy a package on the package list (/manage/productList) to launch more',
    zh: '签署份数已用完，请在套餐列表（/manage/productList）购买套餐后再发起',
  },
  notYourTurn: {
    en: 'it is not your turn yet: an earlier signer has not finished',
    zh: '尚未轮到您签署，前序签署方还未完成',
  },
  alreadySigned: { en: 'you have already signed this flow', zh: '您已签署过该流程' },
  deadlinePassed: { en: 'the signing deadline has passed', zh: '已超过签署截止时间' },
  flowClosed: (status: string): Text => {
    const zh: Record<string, string> = {
      completed: '已完成',
      declined: '已被拒签',
      expired: '已过期',
      cancelled: '已撤销',
      draft: '尚未发起',
    };
    return { en: `this signing flow is ${status}`, zh: `该签署流程${zh[status] ?? status}` };
  },
  allSigned: {
    en: 'every party has already signed: the contract is being completed and can no longer be cancelled or declined',
    zh: '所有签署方均已签署，合同正在完成，不能再撤销或拒签',
  },
  notInitiator: { en: 'only the initiator can do this', zh: '只有发起方可以执行此操作' },
  linkInvalid: {
    en: 'this signing link is not valid for that phone number',
    zh: '签署链接无效，或手机号与签署方不符',
  },
  embedLinkInvalid: {
    en: 'this signing address has expired or was already used: ask the sender for a new one',
    zh: '该签署地址已过期或已使用，请向发起方重新获取',
  },
  roomTokenInvalid: {
    en: 'the signing room has expired; open the signing link again',
    zh: '签署会话已失效，请重新打开签署链接',
  },
  notThisParty: {
    en: 'you are not this signer of the flow',
    zh: '您不是该流程的此签署方',
  },
  noAccount: {
    en: 'no e-signature account for this phone: register and open e-signature to get a certificate first',
    zh: '该手机号尚未注册电子签章账号，请先注册并开通电子签章获取数字证书',
  },
  noPersonCertificate: {
    en: 'you have no digital certificate yet: open e-signature (real-name check) first',
    zh: '您还没有数字证书，请先开通电子签章（实名认证）',
  },
  noCompanyCertificate: {
    en: 'the company has no digital certificate yet: the administrator must open company e-signature first',
    zh: '企业尚未获得数字证书，请管理员先开通企业电子签章',
  },
  notCompanyMember: {
    en: 'only an active administrator or contract handler of this company signs for it',
    zh: '只有该企业在职的管理员或合同经办人可代表企业签署',
  },
  sealNotUsable: {
    en: 'that seal is not yours, disabled, or not authorised to you now',
    zh: '该印章不属于您、已停用或当前未授权给您',
  },
  sealWrongType: {
    en: 'that seal is not of the type this signature asks for',
    zh: '所选印章的类型与签署要求不符',
  },
  needCompanySeal: { en: 'choose the company seal to apply', zh: '请选择要加盖的企业印章' },
  needLegalPersonSeal: { en: 'choose the legal-person seal', zh: '请选择法定代表人章' },
  needPersonSignature: {
    en: 'choose your signature or draw one',
    zh: '请选择您的签名或手写签名',
  },
  badSignaturePng: {
    en: 'the drawn signature is not a PNG image of at most 512 KB',
    zh: '手写签名必须是不超过 512 KB 的 PNG 图片',
  },
  signingBusy: {
    en: 'the document is being signed by someone else right now; try again',
    zh: '文件正在被其他签署方签署，请稍后重试',
  },
  remindTooSoon: { en: 'nobody to remind right now', zh: '当前没有可提醒的签署方' },
  notCompleted: { en: 'the flow is not completed yet', zh: '签署流程尚未完成' },
  onboardingPersonOnly: {
    en: 'real-name authentication in the room is for person signers',
    zh: '签署室内实名认证仅适用于个人签署方',
  },
  nameMismatch: (typed: string, expected: string): Text => ({
    en: `the name you entered, "${typed}", differs from the signer name the sender gave, "${expected}"; ask the sender to correct it`,
    zh: `您填写的姓名“${typed}”与发起方填写的签署人姓名“${expected}”不一致，请联系发起方更正`,
  }),
  alreadyRealName: {
    en: 'this account already has a verified real name',
    zh: '该账号已完成实名认证',
  },
  onboardingTooMany: {
    en: 'too many real-name attempts for this phone; try again in an hour',
    zh: '该手机号实名认证尝试次数过多，请一小时后再试',
  },
  needRealNameFirst: {
    en: 'complete the real-name authentication first',
    zh: '请先完成实名认证',
  },
  provePhoneFirst: {
    en: 'confirm this phone number with an SMS code first: get a code in the signing room and enter it',
    zh: '请先用短信验证码确认本手机号：在签署室获取验证码并填写',
  },
  phoneAlreadyProven: {
    en: 'this phone number is already confirmed in this signing room',
    zh: '本签署室已确认过该手机号',
  },
  onboardingCompanyOnly: {
    en: 'opening a company in the room is for company signers',
    zh: '签署室内开通企业仅适用于企业签署方',
  },
  companyAlreadyOpen: {
    en: 'this company has already opened e-signature',
    zh: '该企业已开通电子签章',
  },
  companyNotApplied: {
    en: 'apply for the company first (credit code and legal representative)',
    zh: '请先提交企业信息（统一社会信用代码和法定代表人）',
  },
  notLegalRep: (verified: string, given: string): Text => ({
    en: `your verified name, "${verified}", is not the legal representative "${given}": only the legal representative opens the company here`,
    zh: `您的实名“${verified}”与法定代表人“${given}”不一致：此处仅法定代表人可开通企业`,
  }),
  readinessTooMany: {
    en: 'too many signer look-ups; try again later',
    zh: '查询签署方状态过于频繁，请稍后再试',
  },
  // Batch signing (issue 28).
  batchNotFound: { en: 'no such batch', zh: '批量签署不存在' },
  batchPartyNotFound: {
    en: 'one of the chosen flows is not waiting for you',
    zh: '所选文件中有不属于您的待签文件',
  },
  batchStarted: { en: 'this batch has already been started', zh: '该批量签署已开始' },
  batchNoCode: {
    en: 'this batch is confirmed by an SMS code: get one first',
    zh: '该批量签署需短信验证码确认，请先获取验证码',
  },
  batchNotFace: {
    en: 'this batch is confirmed by another check than a face check',
    zh: '该批次不使用人脸识别确认意愿',
  },
  batchNotYours: { en: 'this flow is no longer waiting for you', zh: '该文件已不再由您签署' },
  batchApprovalAsked: {
    en: 'the seal needs approval: its approvers were asked; sign this flow again once they approve',
    zh: '该印章需用印审批：已提交审批人，审批通过后请再次签署',
  },
  batchKeptFailing: {
    en: 'signing this flow failed several times; sign it in its own room',
    zh: '该文件多次签署失败，请单独进入签署',
  },
} as const;
