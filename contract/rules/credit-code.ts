/**
 * Unified social credit code (统一社会信用代码), GB 32100-2015: 18 characters from a 31-character
 * alphabet (digits and upper-case letters without I, O, S, V, Z). Position 1 is the registering
 * authority, 2 the kind of organisation, 3-8 the administrative division (digits), 9-17 the organisation
 * code, and 18 a check character computed from the first 17 with the weights 3^i mod 31.
 * One implementation for the client form and the server (pure, no dependencies).
 */
import { bi } from '../bilingual.ts';
export const CREDIT_CODE_ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
const SHAPE = /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/;

/** Why a text is not a valid credit code, or null when it is one. */
export type CreditCodeProblem = 'length' | 'characters' | 'check';

/** Upper-cases and drops spaces: what a user means when typing a code in lower case or with gaps. */
export const normaliseCreditCode = (text: string): string => text.replace(/\s+/g, '').toUpperCase();

/** The check character (position 18) for the first 17 characters; null if they use other characters. */
export function creditCodeCheckChar(first17: string): string | null {
  if (first17.length !== 17) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const value = CREDIT_CODE_ALPHABET.indexOf(first17[i]);
    if (value < 0) return null;
    sum += value * WEIGHTS[i];
  }
  const check = (31 - (sum % 31)) % 31;
  return CREDIT_CODE_ALPHABET[check];
}

/**
 * Checks an already normalised code. Returns null when valid, otherwise what is wrong, so that a form can
 * say "18 characters" rather than a generic "invalid".
 */
export function creditCodeProblem(code: string): CreditCodeProblem | null {
  if (code.length !== 18) return 'length';
  if (!SHAPE.test(code)) return 'characters';
  return creditCodeCheckChar(code.slice(0, 17)) === code[17] ? null : 'check';
}

/** True when `code` (normalised) is a unified social credit code with a correct check character. */
export const isValidCreditCode = (code: string): boolean => creditCodeProblem(code) === null;

/** English messages of the contract's schema for each problem (the client shows its own localised ones). */
export const CREDIT_CODE_MESSAGES: Record<CreditCodeProblem, string> = {
  length: bi('the unified social credit code has 18 characters', '统一社会信用代码须为 18 位'),
  characters: bi(
    'the unified social credit code uses digits and capital letters except I, O, S, V, Z',
    '统一社会信用代码由数字和除 I、O、S、V、Z 以外的大写字母组成',
  ),
  check: bi(
    'the unified social credit code is not valid: its check character (the 18th) does not match',
    '统一社会信用代码无效：第 18 位校验码不符',
  ),
};
