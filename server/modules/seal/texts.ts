import type { Text } from '../../http/texts.ts';

/** Messages of the seal module, both languages. */
export const S = {
  noRealName: {
    en: 'complete real-name verification first: a name seal is made from your verified name',
    zh: '请先完成实名认证：个人名章根据您认证的姓名生成',
  },
  sealNotFound: { en: 'seal not found', zh: '印章不存在' },
  authorisationNotFound: { en: 'authorisation not found', zh: '授权记录不存在' },
  antiCounterfeitTaken: {
    en: 'this anti-counterfeit number is already used by another seal',
    zh: '该防伪编码已被其他印章使用',
  },
  notCompanySeal: {
    en: 'only company seals are authorised to operators',
    zh: '只有企业印章可以授权给经办人',
  },
  notOperator: {
    en: 'only active contract handlers of this company can be authorised',
    zh: '只能授权给本企业在职的合同经办人',
  },
  notKeeper: {
    en: 'only active members holding the seal keeper role can keep a seal',
    zh: '只有拥有印章保管人角色的在职成员才能保管印章',
  },
  periodInvalid: {
    en: 'the authorisation must end after it starts, and in the future',
    zh: '授权结束时间须晚于开始时间，且晚于当前时间',
  },
  sealInUse: {
    en: 'this seal is used by a signing that is not finished yet; it cannot be deleted now',
    zh: '该印章正用于尚未完成的签署，暂时不能删除',
  },
  sealNotUsable: {
    en: 'this seal cannot be used: it is disabled or not authorised to you at this time',
    zh: '该印章不可用：已停用或当前未授权给您',
  },
  uploadNotMultipart: {
    en: 'this call takes multipart/form-data with the image in the field "file"',
    zh: '该接口需要 multipart/form-data，图片放在 file 字段中',
  },
  uploadNoFile: { en: 'no image was sent (field "file")', zh: '没有收到图片（file 字段）' },
  uploadTooLarge: {
    en: 'The image is larger than 5 MB; make it smaller and upload it again.',
    zh: '图片超过 5 MB，请压缩后再上传',
  },
  sealTypeMissing: { en: 'choose the seal type', zh: '请选择印章类型' },
  drawnSignature: { en: 'Handwritten signature', zh: '手写签名' },
  uploadedSeal: { en: 'Uploaded seal', zh: '上传的印章' },
} satisfies Record<string, Text>;
