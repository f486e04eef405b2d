import { checkIdNumber, IdNumberProblem, PERSON_NAME_PATTERN } from '#contract/rules/id-number.ts';
import { defineTexts } from '@/i18n/i18n-store.ts';

// Field checks of the person forms (the workspace's person screens and the signing room's onboarding): the
// same rules the contract applies on the server (the ID number rule is the one shared implementation in
// contract/rules/id-number.ts), answered as text keys so the user sees a localized message under the field
// before anything is sent.

export const personFieldTexts = defineTexts({
  'en-US': {
    nameRequired: 'Enter your name as on your ID card',
    nameFormat: 'The name must have 2 to 30 letters, without digits or symbols',
    idRequired: 'Enter your ID number',
    idLength: 'The ID number must have 18 characters',
    idFormat: 'The ID number must be 17 digits followed by a digit or X',
    idBirthDate: 'The birth date in this ID number does not exist',
    idFutureBirthDate: 'The birth date in this ID number is in the future',
    idCheckDigit: 'The check digit of this ID number is wrong: please check the number',
    phoneRequired: 'Enter your phone number',
    phoneFormat: 'Enter an 11-digit mainland mobile number',
    smsRequired: 'Enter the SMS code',
    smsFormat: 'The SMS code has 6 digits',
  },
  'zh-CN': {
    nameRequired: '请输入身份证上的姓名',
    nameFormat: '姓名须为 2 至 30 个字，不能包含数字或符号',
    idRequired: '请输入身份证号',
    idLength: '身份证号须为 18 位',
    idFormat: '身份证号须为 17 位数字加 1 位数字或 X',
    idBirthDate: '身份证号中的出生日期不存在',
    idFutureBirthDate: '身份证号中的出生日期晚于今天',
    idCheckDigit: '身份证号校验位错误，请核对号码',
    phoneRequired: '请输入手机号',
    phoneFormat: '请输入 11 位大陆手机号',
    smsRequired: '请输入验证码',
    smsFormat: '验证码为 6 位数字',
  },
});
type PersonFieldKey = keyof (typeof personFieldTexts)['en-US'];

export type Check = (value: string) => PersonFieldKey | null;

const ID_PROBLEM_TEXT: Record<IdNumberProblem, PersonFieldKey> = {
  [IdNumberProblem.Required]: 'idRequired',
  [IdNumberProblem.Length]: 'idLength',
  [IdNumberProblem.Format]: 'idFormat',
  [IdNumberProblem.BirthDate]: 'idBirthDate',
  [IdNumberProblem.FutureBirthDate]: 'idFutureBirthDate',
  [IdNumberProblem.CheckDigit]: 'idCheckDigit',
};

export const checkIdNumberField = (value: string, today: Date = new Date()): PersonFieldKey | null => {
  const result = checkIdNumber(value, today);
  return result.ok ? null : ID_PROBLEM_TEXT[result.problem];
};

export const checkName: Check = (value) =>
  !value.trim() ? 'nameRequired' : PERSON_NAME_PATTERN.test(value.trim()) ? null : 'nameFormat';

export const checkPhone: Check = (value) =>
  !value.trim() ? 'phoneRequired' : /^1\d{10}$/.test(value.trim()) ? null : 'phoneFormat';

export const checkSmsCode: Check = (value) =>
  !value.trim() ? 'smsRequired' : /^\d{6}$/.test(value.trim()) ? null : 'smsFormat';
