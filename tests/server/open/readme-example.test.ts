// The integrator example of README.md ("Integrators"), run as an integrator runs it: its shell block, read
// from the README, goes to bash in a folder holding contract.pdf (a contract of several hundred KB, larger
// than one command-line argument may be as base64), against the server listening on a port. Only its two
// placeholders are filled in (the key, the server's address). It must upload the PDF and launch the flow
// with the tools of a stock Debian machine (bash, coreutils, curl: no jq, no uuidgen).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type TestApp, createTestApp } from '../helper.ts';
import { contractPdf, paddedPdf, personWithCert } from '../fixtures/flow.ts';
import { hasTool } from '../fixtures/pdf-signing.ts';
import { makeKey, open } from '../fixtures/open.ts';

const root = join(import.meta.dirname, '../../..');

/** The README's shell block that uses an API key. */
function readmeExample(): string {
  const blocks = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)];
  const block = blocks.map((m) => m[1]).find((b) => /^KEY=esk_live_…$/m.test(b));
  if (!block) throw new Error('README.md has no sh block starting with KEY=esk_live_…');
  return block;
}

/**
 * Runs a script with bash (-euo pipefail) in `cwd`, with a PATH of the system's own folders only (what a stock
 * machine has, not node_modules/.bin). Not spawnSync: the server answering the script runs in this process.
 */
function runBash(
  script: string,
  cwd: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
    cwd,
    env: { PATH: '/usr/bin:/bin', HOME: cwd, LANG: 'C.UTF-8' },
    stdio: ['ignore', 'pipe', 'pipe'], // a socket as stdin would make bash read /etc/bash.bashrc
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c;
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

let t: TestApp;
let base: string;
let key: string;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const alice = await personWithCert(t, '张三');
  key = (await makeKey(alice.agent, ['flows:write', 'flows:read', 'documents:read'])).secret;
  dir = mkdtempSync(join(tmpdir(), 'readme-example-'));
}, 120_000);
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

// Without curl the test is skipped; in CI (global-setup.ts) a missing curl fails the suite instead.
describe.skipIf(!hasTool('curl'))("README.md's integrator example", () => {
  test('uploads a 300 KB contract and launches a flow for "Party B" with bash, coreutils and curl', async () => {
    const pdf = await paddedPdf(await contractPdf(2), 300_000);
    expect(pdf.length).toBeGreaterThan(300_000);
    writeFileSync(join(dir, 'contract.pdf'), pdf);

    const block = readmeExample();
    expect(block).toContain('http://localhost:8080');
    const script = block.replace(/^KEY=esk_live_…$/m, `KEY=${key}`).replaceAll('http://localhost:8080', base);
    const run = await runBash(script, dir);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const launched = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '');
    expect(launched.code, launched.msg).toBe(0);

    const flow = await open<{
      title: string;
      documents: { documentId: string }[];
      steps: { parties: { name: string }[] }[];
    }>(t, 'GET', `/flows/${launched.data.flowId}`, { key });
    expect(flow.status).toBe(200);
    expect(flow.body.data.title).toBe('Contract');
    expect(flow.body.data.steps.flatMap((s) => s.parties.map((p) => p.name))).toEqual(['李四']);
    const [doc] = flow.body.data.documents;
    const pdfBack = await open(t, 'GET', `/documents/${doc.documentId}/pdf`, { key });
    expect(pdfBack.status).toBe(200);
    expect(pdfBack.raw.length).toBeGreaterThan(300_000); // the whole upload arrived
  });
});
