// The install-time engines check judges packages against the Node the project runs on (Node 24 from the
// `node` package), not the machine's Node that npm happens to run on.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { engineMismatches } from '../../scripts/check-engines.ts';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));

describe('engines check', () => {
  test('every installed package accepts the Node the project runs on', () => {
    const nodePackage = lock.packages['node_modules/node'].version as string;
    expect(engineMismatches(lock, nodePackage)).toEqual([]);
    expect(engineMismatches(lock, process.versions.node)).toEqual([]);
  });

  test('a real mismatch is named; the machine Node 20 would have several (what npm warns about)', () => {
    const fake = {
      packages: {
        '': { engines: { node: '>=24' } },
        'node_modules/a': { version: '1.0.0', engines: { node: '>=26' } },
        'node_modules/b': { version: '2.0.0', engines: { node: '>=18' } },
        'node_modules/c': { version: '3.0.0', engines: ['node >= 0.4'] },
      },
    };
    expect(engineMismatches(fake, '24.21.0')).toEqual(['a@1.0.0 needs Node >=26']);
    expect(engineMismatches(lock, '20.20.2').length).toBeGreaterThan(5);
  });

  test('package.json runs it after every install', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(pkg.scripts.postinstall).toBe('node scripts/check-engines.ts');
  });
});
