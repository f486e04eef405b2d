// Shared by the PKI tests: a CA in a temporary data folder, and openssl run on files.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CertRepository, InMemoryCertRepository } from '#server/pki/cert-repository.ts';
import { createPki, type Pki } from '#server/pki/pki.ts';

export const MASTER_KEY = 'test-master-key-0123456789abcdef-0123456789';
export const PUBLIC_URL = 'http://127.0.0.1:9';

export const quietLog = { info: () => {}, warn: () => {}, error: () => {} };

export type PkiFixture = {
  dir: string;
  pki: Pki;
  repository: CertRepository;
  /** Writes a file into the fixture folder and returns its path. */
  file(name: string, data: string | Uint8Array): string;
  close(): void;
};

export async function createPkiFixture(
  opts: { repository?: CertRepository; publicUrl?: string; now?: () => Date } = {},
): Promise<PkiFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'esign-pki-'));
  const repository = opts.repository ?? new InMemoryCertRepository();
  const pki = await createPki({
    dataDir: dir,
    publicUrl: opts.publicUrl ?? PUBLIC_URL,
    masterKey: MASTER_KEY,
    isProduction: false,
    repository,
    log: quietLog,
    now: opts.now,
  });
  return {
    dir,
    pki,
    repository,
    file: (name, data) => {
      const path = join(dir, name);
      writeFileSync(path, data);
      return path;
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs openssl; returns stdout+stderr and the exit status (openssl prints verdicts on either). */
export function openssl(args: string[], input?: Uint8Array): { status: number; out: string } {
  const r = spawnSync('openssl', args, { input, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return { status: r.status ?? -1, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** openssl that must succeed; returns its stdout as bytes. */
export function opensslBytes(args: string[]): Buffer {
  return execFileSync('openssl', args, { maxBuffer: 16 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** openssl without blocking the event loop: needed when it talks to a server in this same process. */
export function opensslAsync(args: string[]): Promise<{ status: number; out: string }> {
  return new Promise((resolve) => {
    execFile('openssl', args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

/** openssl arguments that verify a time-stamp token (DER file) over a digest (hex) against a CA file. */
export function tsVerifyArgs(token: string, digestHex: string, caFile: string): string[] {
  return ['ts', '-verify', '-in', token, '-token_in', '-digest', digestHex, '-CAfile', caFile];
}
