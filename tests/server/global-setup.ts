// Runs once before the server tests: one certificate authority made up front, which every test app
// copies into its data folder. Making a CA (EC keys) takes milliseconds, and copying it fewer: the
// template stays, as it keeps every app on one CA and the suite fast on two cores. Tests of the CA itself (tests/server/pki) make
// their own.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { InMemoryCertRepository } from '#server/pki/cert-repository.ts';
import { createPki } from '#server/pki/pki.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A DATA_DIR whose pki/ holds a ready CA (development master key included). */
    pkiTemplateDir: string;
  }
}

/** Tools whose absence would make tool-backed tests skip; in CI a skip would hide a broken signature. */
const CI_TOOLS = [
  '/usr/bin/pdfsig',
  '/usr/bin/qpdf',
  '/usr/bin/certutil',
  '/usr/bin/openssl',
  '/usr/bin/pdftoppm',
  '/usr/bin/curl', // README.md's integrator example (open/readme-example.test.ts)
];
const CORPUS = resolve(import.meta.dirname, '..', '..', '..', 'shared', 'pdf-corpus', 'manifest.json');

export default async function setup(project: TestProject) {
  if (process.env.CI) {
    const missing = [...CI_TOOLS, CORPUS].filter((path) => !existsSync(path));
    if (missing.length) {
      throw new Error(`CI: ${missing.join(', ')} missing — run \`npm run test:tools\` (npm test does) first`);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'esign-pki-template-'));
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  await createPki({
    dataDir: dir,
    publicUrl: 'http://localhost:8080',
    masterKey: undefined,
    isProduction: false,
    repository: new InMemoryCertRepository(),
    log: quiet,
  });
  project.provide('pkiTemplateDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
