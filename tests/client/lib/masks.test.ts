import { describe, expect, it } from 'vitest';
import { maskIdNumber, maskPhone } from '@/lib/masks.ts';

describe('masks (SPEC §5)', () => {
  it('shows the first 3 and last 4 digits of a phone', () => {
    expect(maskPhone('13812345678')).toBe('138****5678');
  });
  it('shows the first 6 and last 4 characters of an ID number', () => {
    expect(maskIdNumber('11010519491231002X')).toBe('110105********002X');
  });
  it('leaves values too short to mask, and empty values, as they are', () => {
    expect(maskPhone('1234567')).toBe('1234567');
    expect(maskPhone(undefined)).toBe('');
    expect(maskIdNumber(null)).toBe('');
  });
});
