import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (tests/server/pdf → ../../..). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The shared conformance corpus lives beside the repository, not inside it. */
export const corpusDir = path.resolve(repoRoot, '..', 'shared', 'pdf-corpus');
export const hasCorpus = existsSync(path.join(corpusDir, 'manifest.json'));

export type ManifestSignature = {
  field: string;
  kind: string;
  intact: boolean | null;
  crypto_valid: boolean | null;
  coverage: string | null;
  modified_after_signing: string | null;
  indication: string;
  subindication: string | null;
};
export type ManifestEntry = {
  file: string;
  sha256: string;
  size: number;
  category: string;
  expected: {
    signature_count: number;
    signatures: ManifestSignature[];
    verdict: string;
    subindication: string | null;
    alternative_verdicts?: string[];
  };
};

export function manifest(): ManifestEntry[] {
  return hasCorpus ? JSON.parse(readFileSync(path.join(corpusDir, 'manifest.json'), 'utf8')) : [];
}

export function corpusFile(rel: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(corpusDir, rel)));
}
