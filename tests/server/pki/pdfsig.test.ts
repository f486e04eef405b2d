import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkiFor } from '#server/modules/pki/index.ts';
import type { Pki } from '#server/pki/pki.ts';
import { RevocationReason } from '#server/pki/profile.ts';
import { createTestApp, type TestApp } from '../helper.ts';
import { buildSignedPdf } from '../fixtures/minimal-signed-pdf.ts';
import { opensslAsync, tsVerifyArgs } from '../fixtures/pki.ts';

// poppler's pdfsig verifies through NSS with certificateUsageEmailSigner and asks the OCSP responder named
// in the certificate: the closest thing to Adobe Reader that runs here. Skipped where the tools are missing.
const hasTools = existsSync('/usr/bin/pdfsig') && existsSync('/usr/bin/certutil');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** pdfsig without blocking this process (it calls the OCSP responder served here). */
function pdfsig(nssDir: string, pdf: string, extra: string[] = []): Promise<string> {
  return new Promise((resolve) => {
    execFile('pdfsig', ['-nssdir', `sql:${nssDir}`, ...extra, pdf], { encoding: 'utf8' }, (_e, out, err) =>
      resolve(`${out}${err}`),
    );
  });
}

let t: TestApp;
let pki: Pki;
let nssDir: string;
let dir: string;

beforeAll(async () => {
  if (!hasTools) return;
  const port = await freePort();
  t = await createTestApp({
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ESIGN_MASTER_KEY: 'pdfsig-test-master-key-0123456789-abcdef',
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  pki = await pkiFor(t.deps);
  dir = join(t.deps.config.dataDir, 'pdfsig');
  nssDir = join(dir, 'nss');
  mkdirSync(nssDir, { recursive: true });
  execFileSync('certutil', ['-N', '-d', `sql:${nssDir}`, '--empty-password']);
  // TOOLCHAIN.md: pdfsig needs the root trusted for C,C,C.
  execFileSync('certutil', [
    '-A',
    '-d',
    `sql:${nssDir}`,
    '-n',
    'esign-root',
    '-t',
    'C,C,C',
    '-i',
    pki.rootCertPath,
  ]);
});
afterAll(async () => {
  await t?.close();
});

describe.skipIf(!hasTools)('pdfsig (NSS) accepts what the CA issues', () => {
  it('validates a signature by an account certificate as trusted, then as revoked after revocation', async () => {
    const holder = { userType: 0 as const, accountId: randomUUID() };
    const issued = await pki.issue({ ...holder, name: '王五', idNumber: '110105194912310038' });
    const signer = (await pki.signer(holder))!;
    const pdf = join(dir, 'signed.pdf');
    writeFileSync(pdf, await buildSignedPdf(signer, (imprint) => pki.timestamp(imprint)));

    const out = await pdfsig(nssDir, pdf);
    if (process.env.SHOW_PDFSIG) console.log(out);
    expect(out).toContain('Signer Certificate Common Name: 王五');
    expect(out).toContain('Signature Validation: Signature is Valid.');
    expect(out).toContain('Certificate Validation: Certificate is Trusted.');

    await pki.revoke(issued.serial, RevocationReason.KeyCompromise);
    const after = await pdfsig(nssDir, pdf);
    expect(after).toContain('Signature Validation: Signature is Valid.');
    expect(after).toContain('Certificate Validation: Certificate has been Revoked.');
    // Without asking OCSP it would still look trusted: the verdict above came from the responder here.
    expect(await pdfsig(nssDir, pdf, ['-no-ocsp'])).toContain(
      'Certificate Validation: Certificate is Trusted.',
    );
  });

  it('embeds a time-stamp token that openssl verifies', async () => {
    // The token inside the PDF above came from pki.timestamp; checked here on its own against the root.
    const token = join(dir, 'token.tst');
    writeFileSync(token, await pki.timestamp(new Uint8Array(32)));
    const v = await opensslAsync(tsVerifyArgs(token, '00'.repeat(32), pki.rootCertPath));
    expect(v.out).toMatch(/Verification: OK/);
  });
});
