import { describe, expect, test } from 'vitest';
import { beijingDate, beijingMinute } from '#server/lib/beijing-time.ts';

const intl = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

describe('Beijing time', () => {
  test('agrees with the time-zone database across days, month and year ends, and leap days', () => {
    const start = Date.UTC(1995, 0, 1);
    const end = Date.UTC(2060, 0, 1);
    // Every 7 h 13 min for 65 years walks through every hour of the day and every day edge.
    for (let t = start; t < end; t += 7 * 3_600_000 + 13 * 60_000) {
      const d = new Date(t);
      expect(beijingMinute(d)).toBe(intl.format(d));
      expect(beijingDate(d)).toBe(intl.format(d).slice(0, 10));
    }
  });

  test('midnight in Beijing is 16:00 UTC the day before', () => {
    expect(beijingMinute(new Date('2026-12-31T16:00:00Z'))).toBe('2027-01-01 00:00');
    expect(beijingDate(new Date('2026-12-31T15:59:59Z'))).toBe('2026-12-31');
  });
});
