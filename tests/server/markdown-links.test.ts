// Every relative link in the repository's Markdown files resolves inside the repository: a clone has no
// `../shared/` beside it (the README once sent readers to `../shared/ARCHITECTURE.md`). A link is a Markdown
// link `[text](target)` (resolved from the file's folder) or a code span naming a Markdown file by its path
// (`server/README.md`: from the file's folder or, as the READMEs write them, from the repository's root).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** The Markdown files of the repository (tracked, or new and not ignored). */
const markdownFiles = () =>
  execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.md'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => f && existsSync(join(root, f)));

const isInside = (path: string) => {
  const rel = relative(root, path);
  return !rel.startsWith('..') && existsSync(path);
};

/** The relative links of one file that do not resolve inside the repository. */
function brokenLinksOf(file: string, text: string): string[] {
  const folder = dirname(join(root, file));
  const broken: string[] = [];
  // fenced code blocks are code, not links
  const prose = text.replace(/```[\s\S]*?```/g, '');
  for (const [, target] of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const path = decodeURI(target.split('#')[0]);
    if (!path || /^[a-z][a-z0-9+.-]*:/i.test(path)) continue; // an anchor in the page, or a URL
    if (!isInside(resolve(folder, path))) broken.push(target);
  }
  for (const [, path] of prose.matchAll(/`([^`\s{}<>*…]+\.md)(?:#[^`\s]*)?`/g)) {
    if (!isInside(resolve(folder, path)) && !isInside(resolve(root, path))) broken.push(path);
  }
  return broken;
}

describe('relative links in Markdown files', () => {
  test('the link finder sees what a reader follows', () => {
    const text = [
      'See [the design](ARCHITECTURE.md#the-contract) and `server/README.md`, [a site](https://example.com),',
      '[here](#top), `../shared/ARCHITECTURE.md`, [gone](docs/nowhere.md) and `shared/SEALS.md`.',
      '```sh\ncat ../shared/x.md\n```',
    ].join('\n');
    expect(brokenLinksOf('README.md', text)).toEqual([
      'docs/nowhere.md',
      '../shared/ARCHITECTURE.md',
      'shared/SEALS.md',
    ]);
  });

  test('every one resolves inside the repository', () => {
    const files = markdownFiles();
    expect(files).toContain('README.md');
    const broken = files.flatMap((f) =>
      brokenLinksOf(f, readFileSync(join(root, f), 'utf8')).map((link) => `${f}: ${link}`),
    );
    expect(broken).toEqual([]);
  });

  test('the repository carries its own architecture document, and the README points to it', () => {
    expect(existsSync(join(root, 'ARCHITECTURE.md'))).toBe(true);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('[ARCHITECTURE.md](ARCHITECTURE.md)');
  });
});
