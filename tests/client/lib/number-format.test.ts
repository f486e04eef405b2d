import { describe, expect, it } from 'vitest';
import { sanitizeDecimalText, sanitizeNumberText, settleNumber } from '@/lib/number-format.ts';

describe('numeric input rules (SPEC §5)', () => {
  it('keeps only digits, one dot and a leading minus', () => {
    expect(sanitizeNumberText('-1a2.3.4e5')).toBe('-12.345');
    expect(sanitizeNumberText('12-3')).toBe('123');
    expect(sanitizeNumberText('abc')).toBe('');
  });
  it('non-negative decimals drop the minus', () => {
    expect(sanitizeDecimalText('-3.5.1')).toBe('3.51');
  });
  it('settles on blur: empty → 0, clamp to min and max, precision', () => {
    expect(settleNumber('')).toBe('0');
    expect(settleNumber('-', { precision: 2 })).toBe('0.00');
    expect(settleNumber('150', { min: 0, max: 100 })).toBe('100');
    expect(settleNumber('-5', { min: 1, max: 100 })).toBe('1');
    expect(settleNumber('3.14159', { precision: 2 })).toBe('3.14');
    expect(settleNumber('7', { precision: 1 })).toBe('7.0');
  });
});
