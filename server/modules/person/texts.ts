import type { Text } from '../../http/texts.ts';

/** Messages of the person module, both languages. */
export const P = {
  alreadyVerified: {
    en: 'this account has already passed the real-name check',
    zh: '该账号已完成实名认证',
  },
  identityRejected: {
    en: 'the identity check failed: name, ID number and mobile number do not belong to one person',
    zh: '实名认证未通过：姓名、身份证号与手机号不属于同一人',
  },
  identityTaken: {
    en: 'this ID number already belongs to another account: use account recovery on that account instead',
    zh: '该身份证号已绑定其他账号，请通过该账号的账号找回办理',
  },
  realNameTooMany: {
    en: 'too many identity checks, please try again in an hour',
    zh: '实名认证尝试过于频繁，请一小时后再试',
  },
  idNumberFuture: {
    en: 'idNumber: the ID number holds a birth date in the future',
    zh: 'idNumber：身份证号中的出生日期晚于今天',
  },
  agreementOutdated: {
    en: 'this agreement version is not the current one: please read the current agreement',
    zh: '该协议版本不是当前版本，请阅读最新协议',
  },
  needRealName: {
    en: 'complete the real-name check first',
    zh: '请先完成实名认证',
  },
  needAgreement: {
    en: 'accept the digital certificate usage agreement first',
    zh: '请先同意数字证书使用协议',
  },
  recoveryMismatch: {
    en: 'the name or ID number does not match the identity of this account',
    zh: '姓名或身份证号与本账号的实名信息不符',
  },
  recoveryTooMany: {
    en: 'too many account recovery attempts, please try again in an hour',
    zh: '账号找回尝试过于频繁，请一小时后再试',
  },
  recoverySamePhone: {
    en: 'newPhone: this is already the phone of this account',
    zh: 'newPhone：该手机号已是本账号的手机号',
  },
  recoveryPhoneTaken: {
    en: 'newPhone: this phone number is already registered to another account',
    zh: 'newPhone：该手机号已注册其他账号',
  },
  recoveryTicketInvalid: {
    en: 'the recovery step expired or was already used: please verify again',
    zh: '找回凭证已过期或已使用，请重新验证',
  },
  faceSessionUnknown: {
    en: 'this face recognition attempt is unknown or has expired',
    zh: '该人脸识别记录不存在或已过期',
  },
  faceCallbackRejected: {
    en: 'face recognition callback rejected: bad signature or already decided',
    zh: '人脸识别回调被拒绝：签名无效或结果已确定',
  },
  providerUnavailable: {
    en: 'the identity verification service could not be reached, please try again later',
    zh: '身份核验服务暂时无法连接，请稍后再试',
  },
  faceNeedsRecheck: {
    en: 'your real name was verified before the identity provider changed: verify it again before the face check',
    zh: '您的实名信息核验于更换身份核验服务之前，请重新完成实名核验后再进行人脸识别',
  },
} satisfies Record<string, Text>;
