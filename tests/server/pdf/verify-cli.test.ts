import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { corpusDir, hasCorpus, repoRoot } from '../fixtures/pdf-corpus.ts';

const run = promisify(execFile);

async function cli(...args: string[]): Promise<{ stdout: string; code: number }> {
  try {
    const { stdout } = await run('npx', ['node', 'server/pdf/verify-cli.ts', ...args], { cwd: repoRoot });
    return { stdout, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; code: number };
    return { stdout: e.stdout, code: e.code };
  }
}

describe.skipIf(!hasCorpus)('verify CLI', () => {
  it('prints exactly one JSON report for a signed file', async () => {
    const file = path.join(corpusDir, 'files/dss/dss-2058_dss-2058-QC-LTA-test.pdf');
    const { stdout } = await cli('--json', file);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]);
    expect(report.signatures).toHaveLength(3);
    expect(report.trustAside.verdict).toBe('TOTAL_PASSED');
    expect(report.signatures[2].kind).toBe('doc_timestamp');
    for (const key of [
      'field',
      'kind',
      'signer',
      'signedAt',
      'timestamp',
      'intact',
      'cryptoValid',
      'coverage',
      'modifiedAfterSigning',
      'trusted',
      'revocation',
      'indication',
      'subIndication',
    ])
      expect(report.signatures[0]).toHaveProperty(key);
  });

  it('fails an attacked file with a non-zero exit code', async () => {
    const attacked = await cli('--json', path.join(corpusDir, 'files/dss/pdf-signed-added-page.pdf'));
    expect(attacked.code).not.toBe(0);
    expect(JSON.parse(attacked.stdout).verdict).toBe('TOTAL_FAILED');
  });

  it('answers bad input with a JSON error and a non-zero exit code', async () => {
    const { stdout, code } = await cli('--json', path.join(repoRoot, 'package.json'));
    expect(code).toBe(2);
    expect(JSON.parse(stdout)).toEqual({ error: { code: 'NOT_PDF', message: expect.any(String) } });
  });
});
