import { describe, expect, it } from 'vitest';
import { installRem, MOBILE_MAX_WIDTH, remFontSize } from '@/lib/rem.ts';

describe('mobile rem (SPEC §9)', () => {
  it('grows with the viewport up to 540 px and no further', () => {
    expect(MOBILE_MAX_WIDTH).toBe(540);
    expect(remFontSize(375)).toBe(37.5);
    expect(remFontSize(540)).toBe(54);
    expect(remFontSize(1920)).toBe(54);
  });
  it('sets the root font size and follows resizes until undone', () => {
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 360 });
    const undo = installRem();
    expect(document.documentElement.style.fontSize).toBe('36px');
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1200 });
    window.dispatchEvent(new Event('resize'));
    expect(document.documentElement.style.fontSize).toBe('54px');
    undo();
    expect(document.documentElement.style.fontSize).toBe('');
  });
});
