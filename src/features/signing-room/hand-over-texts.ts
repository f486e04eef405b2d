import { defineTexts } from '@/i18n/i18n-store.ts';

/** Texts of "hand over to someone else" in the signing room (reassign, issue 29). */
export const handOverTexts = defineTexts({
  'en-US': {
    handOver: 'Hand over to someone else',
    title: 'Hand over to someone else',
    intro:
      'If you should not sign this contract, hand it to the right person. They receive the signing link; your link and this room stop working.',
    introCompany:
      'Hand this company signing to another administrator or contract handler of {company}. They receive the signing link; your link and this room stop working.',
    newName: 'New signer name',
    newPhone: 'New signer mobile number',
    handler: 'New handler',
    chooseHandler: 'Choose a handler…',
    noHandlers: 'The company has no other administrator or contract handler to hand over to.',
    reason: 'Reason (required)',
    reasonRequired: 'Give the reason (at least 2 characters)',
    nameRequired: 'Enter the new signer name',
    phoneInvalid: 'Enter an 11-digit mobile number',
    handlerRequired: 'Choose the new handler',
    roleAdmin: 'administrator',
    roleHandler: 'contract handler',
    cancel: 'Cancel',
    confirm: 'Hand over',
    done: 'Handed over to {to}. This signing room is now closed.',
    ok: 'OK',
  },
  'zh-CN': {
    handOver: '转交他人',
    title: '转交他人',
    intro: '如果您不应签署该合同，可转交给正确的签署人。对方将收到签署链接，您的链接和本签署页面将失效。',
    introCompany:
      '将本次企业签署转交给{company}的其他管理员或合同经办人。对方将收到签署链接，您的链接和本签署页面将失效。',
    newName: '新签署人姓名',
    newPhone: '新签署人手机号',
    handler: '新经办人',
    chooseHandler: '请选择经办人…',
    noHandlers: '该企业没有其他可转交的管理员或合同经办人。',
    reason: '转交原因（必填）',
    reasonRequired: '请填写转交原因（至少 2 个字）',
    nameRequired: '请输入新签署人姓名',
    phoneInvalid: '请输入 11 位手机号',
    handlerRequired: '请选择新经办人',
    roleAdmin: '管理员',
    roleHandler: '合同经办人',
    cancel: '取消',
    confirm: '确认转交',
    done: '已转交给{to}，本签署页面已关闭。',
    ok: '知道了',
  },
});
