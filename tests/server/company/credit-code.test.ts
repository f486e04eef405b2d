import { describe, expect, it } from 'vitest';
import {
  creditCodeCheckChar,
  creditCodeProblem,
  isValidCreditCode,
  normaliseCreditCode,
} from '#contract/rules/credit-code.ts';

// Codes of real, published companies (the check character is computed by the registry, not by us).
const REAL = ['91440300708461136T', '9144030071526726XG', '91110000802100433B', '91350100M000100Y43'];

describe('unified social credit code (GB 32100)', () => {
  it.each(REAL)('accepts the published code %s', (code) => {
    expect(creditCodeProblem(code)).toBeNull();
    expect(creditCodeCheckChar(code.slice(0, 17))).toBe(code[17]);
  });

  it('refuses every other check character', () => {
    const code = REAL[0];
    for (const c of '0123456789ABCDEFGHJKLMNPQRTUWXY') {
      if (c === code[17]) continue;
      expect(isValidCreditCode(code.slice(0, 17) + c)).toBe(false);
    }
  });

  it('finds a single changed character (a typo)', () => {
    const code = REAL[1];
    const typo = `${code.slice(0, 5)}${code[5] === '8' ? '9' : '8'}${code.slice(6)}`;
    expect(creditCodeProblem(typo)).toBe('check');
  });

  it('names the problem: length, characters (I O S V Z, letters in the division), check', () => {
    expect(creditCodeProblem('9144030070846113')).toBe('length');
    expect(creditCodeProblem('91440300708461136TT')).toBe('length');
    expect(creditCodeProblem('9144030070846113OT')).toBe('characters');
    expect(creditCodeProblem('9144A300708461136T')).toBe('characters');
    expect(creditCodeProblem('91440300708461136Z')).toBe('characters');
    expect(creditCodeProblem('91440300708461136A')).toBe('check');
  });

  it('normalises case and spaces before checking', () => {
    expect(normaliseCreditCode(' 9144 0300 7084 6113 6t ')).toBe('91440300708461136T');
  });
});
