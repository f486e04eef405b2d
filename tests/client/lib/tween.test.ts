import { describe, expect, it } from 'vitest';
import {
  COUNT_UP_DURATION_MS,
  easeOutQuad,
  isHexColor,
  toAnimatableNumber,
  TWEEN_FPS,
  tweenAt,
} from '@/lib/tween.ts';

describe('number animation rules (SPEC §5, §9)', () => {
  it('accepts numbers and numeric strings only', () => {
    expect(toAnimatableNumber(42)).toBe(42);
    expect(toAnimatableNumber(' 3.5 ')).toBe(3.5);
    expect(toAnimatableNumber('-7')).toBe(-7);
    for (const bad of ['12abc', '', 'abc', Number.NaN, Number.POSITIVE_INFINITY, null, undefined, {}, [1]]) {
      expect(toAnimatableNumber(bad)).toBeNull();
    }
  });
  it('accepts 3- and 6-digit hex colours only', () => {
    expect(isHexColor('#abc')).toBe(true);
    expect(isHexColor('#A1B2C3')).toBe(true);
    for (const bad of ['abc', '#abcd', '#12345', '#1234567', 'red', 'rgb(0,0,0)', '#ggg'])
      expect(isHexColor(bad)).toBe(false);
  });
  it('defaults to 1000 ms at 60 frames a second with ease-out-quad', () => {
    expect(COUNT_UP_DURATION_MS).toBe(1000);
    expect(TWEEN_FPS).toBe(60);
    expect(easeOutQuad(0)).toBe(0);
    expect(easeOutQuad(1)).toBe(1);
    // ease-out: the first half of the time covers three quarters of the way
    expect(tweenAt(0, 100, 500)).toBe(75);
    expect(tweenAt(0, 100, 999)).toBeLessThan(100);
    expect(tweenAt(0, 100, 1000)).toBe(100);
    expect(tweenAt(50, 100, 2000)).toBe(100);
  });
});
