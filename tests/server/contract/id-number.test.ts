import { describe, expect, it } from 'vitest';
import { checkIdNumber, idCheckChar } from '#contract/rules/id-number.ts';

const today = new Date('2025-06-15T12:00:00Z');

describe('GB 11643 ID number rule (contract/rules/id-number.ts)', () => {
  it('accepts numbers with the right check character, digit or X, and normalises x to X', () => {
    expect(checkIdNumber('110101199003070011', today)).toEqual({
      ok: true,
      normalised: '110101199003070011',
      birthDate: '1990-03-07',
    });
    expect(checkIdNumber('11010519491231002x', today)).toMatchObject({
      ok: true,
      normalised: '11010519491231002X',
    });
    expect(checkIdNumber(' 440304198501011235 ', today).ok).toBe(true);
  });

  it('computes the check character from the 17 digits (weights 7 9 10 5 8 4 2 1 6 3 ...)', () => {
    expect(idCheckChar('11010519491231002')).toBe('X');
    expect(idCheckChar('44030419850101123')).toBe('5');
  });

  it('refuses a wrong check digit', () => {
    expect(checkIdNumber('110101199003070012', today)).toEqual({ ok: false, problem: 'checkDigit' });
    expect(checkIdNumber('110105194912310020', today)).toEqual({ ok: false, problem: 'checkDigit' });
  });

  it('refuses a birth date that does not exist, and one before 1900', () => {
    const first17 = '11010119900230001'; // 30 February
    expect(checkIdNumber(first17 + idCheckChar(first17), today)).toEqual({ ok: false, problem: 'birthDate' });
    const y1899 = '11010118991231001';
    expect(checkIdNumber(y1899 + idCheckChar(y1899), today)).toEqual({ ok: false, problem: 'birthDate' });
    const leap = '31010120000229456';
    expect(checkIdNumber(leap + idCheckChar(leap), today).ok).toBe(true);
    const notLeap = '31010119000229456';
    expect(checkIdNumber(notLeap + idCheckChar(notLeap), today)).toEqual({ ok: false, problem: 'birthDate' });
  });

  it('refuses a birth date after today (in China time) and accepts today', () => {
    const tomorrow = '11010120250616001';
    expect(checkIdNumber(tomorrow + idCheckChar(tomorrow), today)).toEqual({
      ok: false,
      problem: 'futureBirthDate',
    });
    const sameDay = '11010120250615001';
    expect(checkIdNumber(sameDay + idCheckChar(sameDay), today).ok).toBe(true);
    // 2025-06-15 20:00 UTC is already 16 June in Beijing
    expect(checkIdNumber(tomorrow + idCheckChar(tomorrow), new Date('2025-06-15T20:00:00Z')).ok).toBe(true);
  });

  it('names length, format and emptiness problems', () => {
    expect(checkIdNumber('', today)).toEqual({ ok: false, problem: 'required' });
    expect(checkIdNumber('11010119900307001', today)).toEqual({ ok: false, problem: 'length' });
    expect(checkIdNumber('11010119900307001A', today)).toEqual({ ok: false, problem: 'format' });
    expect(checkIdNumber('010101199003070011', today)).toEqual({ ok: false, problem: 'format' });
    expect(checkIdNumber('1101011990030700X1', today)).toEqual({ ok: false, problem: 'format' });
  });
});
