// Every message a contract schema can report exists in both languages (contract/bilingual.ts): the source
// of contract/ is scanned for checks whose message is a bare string, and addIssue messages for bare text.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chineseOf } from '#contract/bilingual.ts';
import '#contract/calls/index-of-calls.ts';
import { CREDIT_CODE_MESSAGES } from '#contract/rules/credit-code.ts';
import { ID_NUMBER_PROBLEM_TEXT } from '#contract/rules/id-number.ts';

const root = join(import.meta.dirname, '../../../contract');
const files = ['calls', 'rules'].flatMap((dir) =>
  readdirSync(join(root, dir))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(root, dir, f)),
);

const CHECK =
  /\.(?:min|max|length|regex|int|uuid|email|url|positive|nonnegative|gt|gte|lt|lte|refine|startsWith|endsWith|includes)\(|\bz\.uuid\(/g;

/** The text of the arguments of the call whose '(' ends at `open` (nested parentheses allowed). */
function argsAt(source: string, open: number): string {
  let depth = 0;
  for (let i = open; i < source.length; i += 1) {
    if (source[i] === '(') depth += 1;
    else if (source[i] === ')' && --depth === 0) return source.slice(open + 1, i);
  }
  return '';
}

describe('contract messages in both languages', () => {
  it('no check of a schema carries a bare English message', () => {
    const bare: string[] = [];
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      for (const m of source.matchAll(CHECK)) {
        const args = argsAt(source, m.index + m[0].length - 1);
        // The message is the last argument; a bare one is a string literal there, not bi(...).
        if (/(?:^|,)\s*'(?:[^'\\]|\\.)*'\s*,?\s*$/.test(args)) bare.push(`${file}: ${m[0]}${args})`);
      }
      for (const m of source.matchAll(/addIssue\(\{[^}]*message:\s*'/g)) bare.push(`${file}: ${m[0]}`);
    }
    expect(bare).toEqual([]);
  });

  it('the rules tables the client shares are registered with their Chinese', () => {
    for (const en of [...Object.values(ID_NUMBER_PROBLEM_TEXT), ...Object.values(CREDIT_CODE_MESSAGES)])
      expect(chineseOf(en), en).toMatch(/[\u4e00-\u9fff]/);
  });
});
