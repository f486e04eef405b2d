import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDate, formatTime, localInputValue } from '@/lib/format-time.ts';

// 29 November 2026, 14:05 in the zone the test runs in (the helpers show the browser's local time).
const AT = new Date(2026, 10, 29, 14, 5).toISOString();

describe('dates and times', () => {
  it('read the same way everywhere in English: month named, 24-hour clock', () => {
    expect(formatTime(AT, 'en-US')).toBe('Nov 29, 2026, 14:05');
    expect(formatDate(AT, 'en-US')).toBe('Nov 29, 2026');
  });

  it('read the Chinese way in Chinese', () => {
    expect(formatTime(AT, 'zh-CN')).toBe('2026年11月29日 14:05');
    expect(formatDate(AT, 'zh-CN')).toBe('2026年11月29日');
  });

  it('show nothing for no time, and an unreadable value as it came', () => {
    expect(formatTime(null, 'en-US')).toBe('');
    expect(formatDate(undefined, 'en-US')).toBe('');
    expect(formatTime('soon', 'en-US')).toBe('soon');
  });

  it('give a datetime-local input its value in local time', () => {
    expect(localInputValue(AT)).toBe('2026-11-29T14:05');
    expect(localInputValue('')).toBe('');
  });
});

// Every date the client shows goes through src/lib/format-time.ts: one format across the app, not
// 11/29/2026 on one screen, 29/11/2026 on the next and 2026/11/29 on a third.
describe('the client', () => {
  const SRC = resolve(import.meta.dirname, '..', '..', '..', 'src');
  const HELPER = join(SRC, 'lib', 'format-time.ts');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
    );
  const HAND_MADE = [
    /\.toLocale(Date|Time)?String\(/,
    /Intl\.DateTimeFormat/,
    /\.get(Full)?Year\(|\.getMonth\(|\.getHours\(|\.getMinutes\(/,
    /\b(notBefore|notAfter|createdAt|[a-z]+At)\.slice\(0, (10|16)\)/,
    /toISOString\(\)\.slice\(/,
    /\bdayjs\b/,
  ];

  it('formats every date through the one helper', () => {
    const offenders: string[] = [];
    for (const file of files(SRC)) {
      if (file === HELPER) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (HAND_MADE.some((re) => re.test(line)))
            offenders.push(`${relative(SRC, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
