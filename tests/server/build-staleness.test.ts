// When `npm start` and the runners rebuild the client (dist/client) or the server bundle (dist/server):
// scripts/build-staleness.ts. A build older than any of its sources is stale, so a changed, added or removed
// file anywhere below a source folder rebuilds it; a build newer than all of them is used as it is.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isStale } from '../../scripts/build-staleness.ts';

const root = mkdtempSync(join(tmpdir(), 'build-staleness-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const at = (seconds: number) => new Date(1_700_000_000_000 + seconds * 1000);
const touch = (path: string, seconds: number) => utimesSync(path, at(seconds), at(seconds));

describe('build staleness', () => {
  it('is stale when missing or older than any file or folder among its sources, fresh otherwise', () => {
    mkdirSync(join(root, 'server', 'db'), { recursive: true });
    writeFileSync(join(root, 'server', 'db', 'a.ts'), 'a');
    writeFileSync(join(root, 'package.json'), '{}');
    for (const p of ['server/db/a.ts', 'server/db', 'server', 'package.json']) touch(join(root, p), 10);
    const built = join(root, 'dist', 'serve.js');
    const sources = ['server', 'package.json', 'contract'];
    expect(isStale(root, built, sources)).toBe(true);

    mkdirSync(join(root, 'dist'));
    writeFileSync(built, 'built');
    touch(built, 20);
    // A source that does not exist ('contract') counts as old.
    expect(isStale(root, built, sources)).toBe(false);

    // A file changed deep in a folder.
    touch(join(root, 'server', 'db', 'a.ts'), 30);
    expect(isStale(root, built, sources)).toBe(true);
    touch(built, 40);
    expect(isStale(root, built, sources)).toBe(false);

    // A file added to a folder (its folder's time moves on), then one removed.
    writeFileSync(join(root, 'server', 'db', 'b.ts'), 'b');
    touch(join(root, 'server', 'db', 'b.ts'), 35);
    touch(join(root, 'server', 'db'), 50);
    expect(isStale(root, built, sources)).toBe(true);
    touch(built, 60);
    expect(isStale(root, built, sources)).toBe(false);
    unlinkSync(join(root, 'server', 'db', 'b.ts'));
    touch(join(root, 'server', 'db'), 70);
    expect(isStale(root, built, sources)).toBe(true);

    // A top-level file source.
    touch(built, 80);
    touch(join(root, 'package.json'), 90);
    expect(isStale(root, built, sources)).toBe(true);
  });
});
