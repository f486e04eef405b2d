/**
 * The mainland resident ID number rule (GB 11643-1999), shared by the client (field messages before
 * sending) and the server (the authority). Pure: no zod, no I/O, so the browser bundle can import it.
 */
import { bi } from '../bilingual.ts';

/** Why an ID number is refused; the client maps each to a localized field message. */
export const IdNumberProblem = {
  Required: 'required',
  Length: 'length',
  Format: 'format',
  BirthDate: 'birthDate',
  FutureBirthDate: 'futureBirthDate',
  CheckDigit: 'checkDigit',
} as const;
export type IdNumberProblem = (typeof IdNumberProblem)[keyof typeof IdNumberProblem];

type IdNumberCheck =
  | { ok: true; normalised: string; birthDate: string }
  | { ok: false; problem: IdNumberProblem };

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK_CHARS = '10X98765432';

/** The GB 11643 check character of the first 17 digits. */
export function idCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * WEIGHTS[i];
  return CHECK_CHARS[sum % 11];
}

/** Whether YYYY-MM-DD exists in the calendar (no 30 February), year 1900 or later. */
function isRealDate(year: number, month: number, day: number): boolean {
  if (year < 1900 || month < 1 || month > 12 || day < 1) return false;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/**
 * Checks an 18-character ID number: 17 digits and a check character (digit or X, lower-case x accepted),
 * a region code not starting with 0, a birth date that exists and is not after `today`, and the GB 11643
 * check character. Returns the normalised number (upper-case X) and the birth date, or the first problem.
 */
export function checkIdNumber(value: string, today: Date = new Date()): IdNumberCheck {
  const v = value.trim().toUpperCase();
  if (!v) return { ok: false, problem: IdNumberProblem.Required };
  if (v.length !== 18) return { ok: false, problem: IdNumberProblem.Length };
  if (!/^[1-9]\d{16}[\dX]$/.test(v)) return { ok: false, problem: IdNumberProblem.Format };
  const year = Number(v.slice(6, 10));
  const month = Number(v.slice(10, 12));
  const day = Number(v.slice(12, 14));
  if (!isRealDate(year, month, day)) return { ok: false, problem: IdNumberProblem.BirthDate };
  // Compared as calendar days in China's time zone (UTC+8), where the number was issued.
  const local = new Date(today.getTime() + 8 * 3600_000);
  const todayKey = local.getUTCFullYear() * 10_000 + (local.getUTCMonth() + 1) * 100 + local.getUTCDate();
  if (year * 10_000 + month * 100 + day > todayKey)
    return { ok: false, problem: IdNumberProblem.FutureBirthDate };
  if (idCheckChar(v.slice(0, 17)) !== v[17]) return { ok: false, problem: IdNumberProblem.CheckDigit };
  return { ok: true, normalised: v, birthDate: `${v.slice(6, 10)}-${v.slice(10, 12)}-${v.slice(12, 14)}` };
}

/** English text of each problem, used in the contract's field messages ("idNumber: ..."). */
export const ID_NUMBER_PROBLEM_TEXT: Record<IdNumberProblem, string> = {
  required: bi('the ID number is required', '请输入身份证号'),
  length: bi('the ID number must have 18 characters', '身份证号须为 18 位'),
  format: bi(
    'the ID number must be 17 digits followed by a digit or X',
    '身份证号须为 17 位数字加 1 位数字或 X',
  ),
  birthDate: bi('the ID number holds a birth date that does not exist', '身份证号中的出生日期不存在'),
  futureBirthDate: bi('the ID number holds a birth date in the future', '身份证号中的出生日期晚于今天'),
  checkDigit: bi('the ID number check digit is wrong', '身份证号校验位错误'),
};

/** A person's name as the identity check takes it: 2 to 30 characters, no digits or control characters. */
export const PERSON_NAME_PATTERN = /^[\p{L}\p{M}·•.\- ]{2,30}$/u;
