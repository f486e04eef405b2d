// The key types of the CA hierarchy (issue 13): a new install makes EC keys (P-384 root and issuing CA,
// P-256 TSA and OCSP signer); an install made before with RSA keys keeps them and keeps working. Both are
// checked the same way, by verifiers that are not ours: openssl (certificates, CRL, OCSP, time-stamps) and
// pdfsig (NSS, asking the OCSP responder served here), and by the platform verifier.
import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkiFor } from '#server/modules/pki/index.ts';
import { verifyPdf } from '#server/pdf/verify/verify-pdf.ts';
import { InMemoryCertRepository } from '#server/pki/cert-repository.ts';
import { EncryptedKeyStore, type KeyStore } from '#server/pki/key-store.ts';
import { createPki, type Pki, type PkiOptions } from '#server/pki/pki.ts';
import { RevocationReason } from '#server/pki/profile.ts';
import { createTestApp, type TestApp } from '../helper.ts';
import { openssl, opensslAsync, opensslBytes, PUBLIC_URL, quietLog, tsVerifyArgs } from '../fixtures/pki.ts';
import { buildSignedPdf } from '../fixtures/minimal-signed-pdf.ts';

const hasPdfsig = existsSync('/usr/bin/pdfsig') && existsSync('/usr/bin/certutil');
const MASTER_KEY = 'ca-keys-test-master-key-0123456789-abcdef';

/** The PKI of `dataDir` started on its own (no app), as a later start or another instance would. */
const startPki = (dataDir: string, publicUrl: string, more: Partial<PkiOptions> = {}) =>
  createPki({
    dataDir,
    publicUrl,
    masterKey: MASTER_KEY,
    isProduction: false,
    repository: new InMemoryCertRepository(),
    log: quietLog,
    ...more,
  });

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** What openssl prints for each part of a hierarchy of one kind. */
const EXPECTED = {
  ec: {
    root: /Public-Key: \(384 bit\)[\s\S]*NIST CURVE: P-384/,
    issuing: /Public-Key: \(384 bit\)[\s\S]*NIST CURVE: P-384/,
    tsa: /Public-Key: \(256 bit\)[\s\S]*NIST CURVE: P-256/,
    ocsp: /Public-Key: \(256 bit\)[\s\S]*NIST CURVE: P-256/,
    /** what the root and issuing CA sign certificates and CRLs with */
    caSig: 'ecdsa-with-SHA384',
    /** what the TSA and the OCSP signer sign with */
    leafSig: 'ecdsa-with-SHA256',
  },
  rsa: {
    root: /Public-Key: \(4096 bit\)/,
    issuing: /Public-Key: \(3072 bit\)/,
    tsa: /Public-Key: \(3072 bit\)/,
    ocsp: /Public-Key: \(2048 bit\)/,
    caSig: 'sha256WithRSAEncryption',
    leafSig: 'sha256WithRSAEncryption',
  },
} as const;

describe.each([
  { kind: 'ec', what: 'a new install (EC keys)' },
  { kind: 'rsa', what: 'an install made with RSA keys, started by this code' },
] as const)('$what', ({ kind }) => {
  const want = EXPECTED[kind];
  let dataDir: string;
  let t: TestApp;
  let pki: Pki;
  let pkiDir: string;
  let base: string;
  const file = (name: string, data: string | Uint8Array) => {
    const p = join(dataDir, 'out', name);
    writeFileSync(p, data);
    return p;
  };
  const crt = (role: string) => join(pkiDir, `${role}.crt`);
  const certText = (role: string) => openssl(['x509', '-in', crt(role), '-noout', '-text']).out;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), `esign-ca-${kind}-`));
    mkdirSync(join(dataDir, 'out'));
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    if (kind === 'rsa') {
      // The hierarchy the code made before EC keys: RSA 4096/3072/3072/2048.
      await startPki(dataDir, publicUrl, { caKeys: 'rsa' });
    }
    // The app starts as a server does (no key type given): it makes an EC CA, or loads the RSA one.
    t = await createTestApp({ ESIGN_MASTER_KEY: MASTER_KEY, PUBLIC_URL: publicUrl, DATA_DIR: dataDir });
    base = await t.app.listen({ port, host: '127.0.0.1' });
    pki = await pkiFor(t.deps);
    pkiDir = join(dataDir, 'pki');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('has the keys of its kind, signed with the matching algorithms, and a chain openssl verifies', () => {
    for (const role of ['root', 'issuing', 'tsa', 'ocsp'] as const)
      expect(certText(role)).toMatch(want[role]);
    for (const role of ['root', 'issuing', 'tsa', 'ocsp'])
      expect(certText(role)).toContain(`Signature Algorithm: ${want.caSig}`);
    const r = openssl([
      'verify',
      '-CAfile',
      crt('root'),
      '-untrusted',
      crt('issuing'),
      crt('issuing'),
      crt('tsa'),
      crt('ocsp'),
    ]);
    expect(r.out.match(/: OK/g), r.out).toHaveLength(3);
  });

  it('issues account certificates (RSA-2048) that openssl chains to the root', async () => {
    const c = await pki.issue({
      userType: 0,
      accountId: randomUUID(),
      name: '赵六',
      idNumber: '110105194912310038',
    });
    const pem = file('account.pem', c.pem);
    const text = openssl(['x509', '-in', pem, '-noout', '-text']).out;
    expect(text).toMatch(/Public-Key: \(2048 bit\)/);
    expect(text).toContain(`Signature Algorithm: ${want.caSig}`);
    expect(openssl(['verify', '-CAfile', crt('root'), '-untrusted', crt('issuing'), pem]).out).toContain(
      `${pem}: OK`,
    );
  });

  it('publishes CRLs (issuing and root) that openssl verifies', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/pki/crl' });
    const bundle = file('bundle.pem', `${readFileSync(crt('issuing'), 'utf8')}${pki.rootPem}`);
    const crl = openssl([
      'crl',
      '-inform',
      'DER',
      '-in',
      file('c.crl', res.rawPayload),
      '-CAfile',
      bundle,
      '-noout',
      '-text',
    ]);
    expect(crl.out).toMatch(/verify OK/);
    expect(crl.out).toContain(`Signature Algorithm: ${want.caSig}`);
    const rootCrl = openssl([
      'crl',
      '-inform',
      'DER',
      '-in',
      file('r.crl', pki.rootCrl),
      '-CAfile',
      crt('root'),
      '-noout',
      '-text',
    ]);
    expect(rootCrl.out).toMatch(/verify OK/);
    expect(rootCrl.out).toContain(`Signature Algorithm: ${want.caSig}`);
  });

  it('answers OCSP with responses openssl verifies: good, then revoked', async () => {
    const holder = { userType: 0 as const, accountId: randomUUID() };
    const c = await pki.issue({ ...holder, name: '钱七', idNumber: '110105194912310038' });
    const pem = file(`${c.serial}.pem`, c.pem);
    const args = [
      'ocsp',
      '-issuer',
      crt('issuing'),
      '-cert',
      pem,
      '-url',
      `${base}/v1/pki/ocsp`,
      '-CAfile',
      crt('root'),
      '-resp_text',
    ];
    const before = await opensslAsync(args);
    expect(before.out).toContain('Response verify OK');
    expect(before.out).toContain(`${pem}: good`);
    expect(before.out).toContain(`Signature Algorithm: ${want.leafSig}`);
    await pki.revoke(c.serial, RevocationReason.KeyCompromise);
    const after = await opensslAsync(args);
    expect(after.out).toContain('Response verify OK');
    expect(after.out).toContain(`${pem}: revoked`);
  });

  it('time-stamps with tokens openssl ts -verify accepts, signed with the TSA key type', async () => {
    const data = file('data.txt', '合同正文 / contract text\n');
    const query = file('q.tsq', new Uint8Array());
    opensslBytes(['ts', '-query', '-data', data, '-sha256', '-cert', '-out', query]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/pki/tsa',
      headers: { 'content-type': 'application/timestamp-query' },
      payload: readFileSync(query),
    });
    const reply = file('r.tsr', res.rawPayload);
    const v = openssl([
      'ts',
      '-verify',
      '-in',
      reply,
      '-data',
      data,
      '-CAfile',
      crt('root'),
      '-untrusted',
      crt('tsa'),
    ]);
    expect(v.out).toMatch(/Verification: OK/);
    const token = file('t.p7', opensslBytes(['ts', '-reply', '-in', reply, '-token_out']));
    const printed = openssl(['cms', '-cmsout', '-print', '-inform', 'DER', '-in', token]).out;
    expect(printed).toMatch(new RegExp(`signatureAlgorithm:\\s+algorithm: ${want.leafSig}`));
    expect(printed).toMatch(/digestAlgorithm:\s+algorithm: sha256/);
  });

  it.skipIf(!hasPdfsig)(
    'signs a PDF that pdfsig (with OCSP) and the platform verifier accept, its time-stamp included',
    async () => {
      const holder = { userType: 0 as const, accountId: randomUUID() };
      await pki.issue({ ...holder, name: '孙八', idNumber: '110105194912310038' });
      const signer = (await pki.signer(holder))!;
      const pdfBytes = await buildSignedPdf(signer, (imprint) => pki.timestamp(imprint));
      const pdf = file('signed.pdf', pdfBytes);
      const nss = join(dataDir, 'out', 'nss');
      mkdirSync(nss);
      execFileSync('certutil', ['-N', '-d', `sql:${nss}`, '--empty-password']);
      execFileSync('certutil', ['-A', '-d', `sql:${nss}`, '-n', 'root', '-t', 'C,C,C', '-i', crt('root')]);
      const out = await new Promise<string>((resolve) =>
        execFile('pdfsig', ['-nssdir', `sql:${nss}`, pdf], { encoding: 'utf8' }, (_e, o, e) =>
          resolve(`${o}${e}`),
        ),
      );
      expect(out).toContain('Signature Validation: Signature is Valid.');
      expect(out).toContain('Certificate Validation: Certificate is Trusted.');

      const report = await verifyPdf(pdfBytes, { trustAnchors: [pki.ca.root.der], now: t.clock.now() });
      const s = report.signatures[0];
      expect(s.cryptoValid).toBe(true);
      expect(s.trusted).toBe(true);
      expect(s.timestamp, JSON.stringify(s.problems)).toMatchObject({ valid: true });
    },
    60_000,
  );

  it('time-stamps through WebCrypto too, for a KeyStore that gives no KeyObject (an HSM)', async () => {
    const store = new EncryptedKeyStore(new TextEncoder().encode(MASTER_KEY));
    const hsmLike: KeyStore = {
      generateKey: (spec, label) => store.generateKey(spec, label),
      loadPrivateKey: (stored, label) => store.loadPrivateKey(stored, label),
    };
    const other = await startPki(dataDir, PUBLIC_URL, { keyStore: hsmLike });
    expect(other.ca.tsaKey).toBeUndefined();
    const token = file('webcrypto.tst', await other.timestamp(new Uint8Array(32).fill(7)));
    const v = openssl(tsVerifyArgs(token, '07'.repeat(32), crt('root')));
    expect(v.out).toMatch(/Verification: OK/);
    const printed = openssl(['cms', '-cmsout', '-print', '-inform', 'DER', '-in', token]).out;
    expect(printed).toMatch(new RegExp(`signatureAlgorithm:\\s+algorithm: ${want.leafSig}`));
  });

  it('renews an OCSP certificate close to expiry with a key of the install kind', async () => {
    const later = await startPki(dataDir, PUBLIC_URL, {
      now: () => new Date(Date.now() + 700 * 86_400_000),
    });
    expect(later.ca.ocsp.cert.serialNumber).not.toBe(pki.ca.ocsp.cert.serialNumber);
    expect(later.rootPem).toBe(pki.rootPem);
    expect(certText('ocsp')).toMatch(want.ocsp);
    expect(later.ca.ocsp.privateKey.algorithm.name).toBe(kind === 'ec' ? 'ECDSA' : 'RSASSA-PKCS1-v1_5');
  });
});
