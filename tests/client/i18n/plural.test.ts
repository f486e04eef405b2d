import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countOf } from '#contract/plural.ts';
import { fillText } from '@/i18n/fill-text.ts';
import { translate } from '@/i18n/i18n-store.ts';

describe('counts in texts', () => {
  it('take the singular for one and the plural otherwise in English', () => {
    const text = '{n, plural, one {# page} other {# pages}}';
    expect(fillText('en-US', text, { n: 1 })).toBe('1 page');
    expect(fillText('en-US', text, { n: 0 })).toBe('0 pages');
    expect(fillText('en-US', text, { n: 2 })).toBe('2 pages');
    expect(fillText('en-US', text, { n: 1.5 })).toBe('1.5 pages');
  });

  it('leave Chinese, which has no plural, on its one form', () => {
    expect(fillText('zh-CN', '共 {n, plural, other {# 条}}', { n: 1 })).toBe('共 1 条');
  });

  it('fill plain placeholders beside plural ones, and leave unknown ones alone', () => {
    const text = '{docs, plural, one {# document} other {# documents}} for {who} {missing}';
    expect(fillText('en-US', text, { docs: 1, who: 'Li' })).toBe('1 document for Li {missing}');
  });

  it('read right in the server’s English messages too', () => {
    expect(countOf(1, 'attempt', 'attempts')).toBe('1 attempt');
    expect(countOf(2, 'attempt', 'attempts')).toBe('2 attempts');
    expect(countOf(0, 'minute', 'minutes')).toBe('0 minutes');
  });

  it('are right in the shared texts: the pager total', () => {
    expect(translate('en-US', 'pager.total', { total: 1 })).toBe('1 item in total');
    expect(translate('en-US', 'pager.total', { total: 7 })).toBe('7 items in total');
    expect(translate('zh-CN', 'pager.total', { total: 1 })).toBe('共 1 条');
  });
});

// Every English text of the client: a count placeholder followed by a plural noun ("{n} pages") or an
// "(s)" reads wrong for one; such a count must go through the plural form `{n, plural, one {…} other {…}}`.
describe('the English texts', () => {
  const ROOT = resolve(import.meta.dirname, '..', '..', '..');
  const SRC = join(ROOT, 'src');
  const SERVER = join(ROOT, 'server');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
    );
  // Words after a placeholder that end in "s" but are no plural nouns: verbs ("{name} was refused") and
  // units, the same for one and many ("{seconds} s", "{ms} ms").
  const NOT_PLURAL_NOUNS = new Set([
    ...['is', 'was', 'has', 'does', 'needs', 'contains', 'confirms', 'invites', 'reminds', 'shows', 'asks'],
    ...['s', 'ms'],
  ]);
  const CJK = /[\u3000-\u9fff\uff00-\uffef]/;

  // A placeholder of the client's texts ({n}) or of the server's messages (${n}), then the word after it.
  const COUNTED = /(?:\{\w+\}|\$\{[^}]+\})\s+([A-Za-z]+(?:\(s\))?)/g;
  function offendersIn(literal: string): boolean {
    if (CJK.test(literal)) return false;
    for (const m of literal.matchAll(COUNTED)) {
      const word = m[1]!;
      if (word.endsWith('(s)') || (word.endsWith('s') && !NOT_PLURAL_NOUNS.has(word.toLowerCase())))
        return true;
    }
    // "day(s)" is the plural left to the reader; "http(s)" is a scheme.
    return /(?<!http)\(s\)/.test(literal);
  }
  const LITERAL = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`[^`]*`/g;

  it('route every count with a noun through the plural form (client)', () => {
    const offenders = files(SRC).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(LITERAL)]
        .filter(([literal]) => offendersIn(literal))
        .map(([literal]) => `${relative(ROOT, file)}: ${literal}`),
    );
    expect(offenders).toEqual([]);
  });

  it('route every count with a noun through countOf (the server’s English messages)', () => {
    // The server's messages are { en, zh } pairs: the English half is on a line with `en:`.
    const offenders = files(SERVER).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => /\ben: /.test(line))
        .flatMap((line) => [...line.matchAll(LITERAL)].map(([literal]) => literal))
        .filter(offendersIn)
        .map((literal) => `${relative(ROOT, file)}: ${literal}`),
    );
    expect(offenders).toEqual([]);
  });
});
