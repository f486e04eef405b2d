import { checkIdNumber, IdNumberProblem, PERSON_NAME_PATTERN } from '#contract/rules/id-number.ts';
import type { PersonTextKey } from './texts.ts';

// Field checks of the person forms: the same rules the contract applies on the server (the ID number rule
// is the one shared implementation in contract/rules/id-number.ts), answered as text keys so the user sees
// a localized message under the field before anything is sent.

export type Check = (value: string) => PersonTextKey | null;

const ID_PROBLEM_TEXT: Record<IdNumberProblem, PersonTextKey> = {
  [IdNumberProblem.Required]: 'idRequired',
  [IdNumberProblem.Length]: 'idLength',
  [IdNumberProblem.Format]: 'idFormat',
  [IdNumberProblem.BirthDate]: 'idBirthDate',
  [IdNumberProblem.FutureBirthDate]: 'idFutureBirthDate',
  [IdNumberProblem.CheckDigit]: 'idCheckDigit',
};

export const checkIdNumberField = (value: string, today: Date = new Date()): PersonTextKey | null => {
  const result = checkIdNumber(value, today);
  return result.ok ? null : ID_PROBLEM_TEXT[result.problem];
};

export const checkName: Check = (value) =>
  !value.trim() ? 'nameRequired' : PERSON_NAME_PATTERN.test(value.trim()) ? null : 'nameFormat';

export const checkPhone: Check = (value) =>
  !value.trim() ? 'phoneRequired' : /^1\d{10}$/.test(value.trim()) ? null : 'phoneFormat';

export const checkSmsCode: Check = (value) =>
  !value.trim() ? 'smsRequired' : /^\d{6}$/.test(value.trim()) ? null : 'smsFormat';
