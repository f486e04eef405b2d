import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Config } from '../../config.ts';

/**
 * Settings of the verification service, read from the environment when the module starts and validated
 * there (a bad value stops the start naming the variable, like server/config.ts does for the others):
 *   VERIFY_MAX_MB              size limit of a checked file (default: UPLOAD_LIMIT_MB, itself 50)
 *   VERIFY_TRUST_ANCHORS_DIR   folder of PEM files (*.pem, *.crt) trusted beside the platform root
 *   VERIFY_MAX_PER_IP_MINUTE   verifications one client address may ask per minute (default 30)
 *   VERIFY_TIME_LIMIT_MS       per-file time limit of the verifier (default 5000)
 *   VERIFY_WORKERS             worker threads that run the verifier (default: CPUs, at most 4; 0 = in process)
 *   VERIFY_WORKER_HEAP_MB      heap ceiling of one worker (default 256): a file that needs more fails alone
 *   VERIFY_WORKER_MAX_JOBS     files one worker verifies before it is retired and a fresh one started (default 200)
 *   VERIFY_MAX_KEPT_REPORTS    reports kept at most (default 5000): beyond, the oldest go before their hour is up
 */
export type VerifySettings = {
  maxBytes: number;
  trustAnchorsDir: string | undefined;
  maxPerIpMinute: number;
  timeLimitMs: number;
  workers: number;
  workerHeapMb: number;
  workerMaxJobs: number;
  maxKeptReports: number;
};

const zInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const zEnv = z.object({
  VERIFY_MAX_MB: zInt(1, 2048).optional(),
  VERIFY_TRUST_ANCHORS_DIR: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
  VERIFY_MAX_PER_IP_MINUTE: zInt(1, 1_000_000).default(30),
  VERIFY_TIME_LIMIT_MS: zInt(100, 120_000).default(5000),
  VERIFY_WORKERS: zInt(0, 64).optional(),
  VERIFY_WORKER_HEAP_MB: zInt(64, 16_384).default(256),
  VERIFY_WORKER_MAX_JOBS: zInt(1, 1_000_000).default(200),
  VERIFY_MAX_KEPT_REPORTS: zInt(1, 10_000_000).default(5000),
});

export function loadVerifySettings(
  config: Config,
  env: Record<string, string | undefined> = process.env,
): VerifySettings {
  const parsed = zEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    maxBytes: e.VERIFY_MAX_MB ? e.VERIFY_MAX_MB * 1024 * 1024 : config.uploadLimitBytes,
    trustAnchorsDir: e.VERIFY_TRUST_ANCHORS_DIR,
    maxPerIpMinute: e.VERIFY_MAX_PER_IP_MINUTE,
    timeLimitMs: e.VERIFY_TIME_LIMIT_MS,
    workers: e.VERIFY_WORKERS ?? Math.min(4, Math.max(1, availableParallelism())),
    workerHeapMb: e.VERIFY_WORKER_HEAP_MB,
    workerMaxJobs: e.VERIFY_WORKER_MAX_JOBS,
    maxKeptReports: e.VERIFY_MAX_KEPT_REPORTS,
  };
}

/** DER certificates of every PEM file in the folder; an unreadable folder or a file without one stops the start. */
export function loadTrustAnchors(dir: string | undefined): Uint8Array[] {
  if (!dir) return [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /\.(pem|crt|cer)$/i.test(n));
  } catch (err) {
    throw new Error(
      `Invalid configuration:\n  VERIFY_TRUST_ANCHORS_DIR: cannot read ${dir} (${(err as Error).message})`,
    );
  }
  const out: Uint8Array[] = [];
  for (const name of names.sort()) {
    const certs = pemCertificates(readFileSync(join(dir, name), 'latin1'));
    if (certs.length === 0)
      throw new Error(`Invalid configuration:\n  VERIFY_TRUST_ANCHORS_DIR: ${name} holds no PEM certificate`);
    out.push(...certs);
  }
  return out;
}

/** The DER bytes of each `BEGIN CERTIFICATE` block. */
function pemCertificates(pem: string): Uint8Array[] {
  const re = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;
  return [...pem.matchAll(re)].map((m) => new Uint8Array(Buffer.from(m[1].replace(/\s+/g, ''), 'base64')));
}
