import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryCertRepository } from '#server/pki/cert-repository.ts';
import { createPki } from '#server/pki/pki.ts';
import { EncryptedKeyStore } from '#server/pki/key-store.ts';
import { createPkiFixture, MASTER_KEY, openssl, type PkiFixture, quietLog } from '../fixtures/pki.ts';

let f: PkiFixture;
let pkiDir: string;
beforeAll(async () => {
  f = await createPkiFixture();
  pkiDir = join(f.dir, 'pki');
});
afterAll(() => f?.close());

const text = (file: string) => openssl(['x509', '-in', join(pkiDir, file), '-noout', '-text']).out;

describe('CA bootstrap', () => {
  it('writes the root, issuing, TSA and OCSP certificates, and the root exactly at DATA_DIR/pki/root.crt', () => {
    expect(readdirSync(pkiDir).sort()).toEqual(
      [
        'issuing.crt',
        'issuing.key.enc',
        'ocsp.crt',
        'ocsp.key.enc',
        'root.crt',
        'root.key.enc',
        'tsa.crt',
        'tsa.key.enc',
      ].sort(),
    );
    expect(f.pki.rootCertPath).toBe(join(pkiDir, 'root.crt'));
    expect(readFileSync(f.pki.rootCertPath, 'utf8')).toBe(f.pki.rootPem);
    expect(f.pki.rootPem).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
  });

  it('gives the root CA and issuing CA the constraints verifiers require', () => {
    const root = text('root.crt');
    // EC: P-384, self-signed with ecdsa-with-SHA384.
    expect(root).toMatch(/Public-Key: \(384 bit\)/);
    expect(root).toMatch(/NIST CURVE: P-384/);
    expect(root).toMatch(/Signature Algorithm: ecdsa-with-SHA384/);
    expect(root).toMatch(/Basic Constraints: critical\s+CA:TRUE\n/);
    expect(root).toMatch(/Key Usage: critical\s+Certificate Sign, CRL Sign/);
    const notAfter = new Date(
      openssl(['x509', '-in', join(pkiDir, 'root.crt'), '-noout', '-enddate']).out.split('=')[1],
    );
    expect(notAfter.getTime() - Date.now()).toBeGreaterThan(19.9 * 365 * 86_400_000);

    const issuing = text('issuing.crt');
    expect(issuing).toMatch(/Public-Key: \(384 bit\)/);
    expect(issuing).toMatch(/Signature Algorithm: ecdsa-with-SHA384/);
    expect(issuing).toMatch(/Basic Constraints: critical\s+CA:TRUE, pathlen:0/);
    expect(issuing).toMatch(/Key Usage: critical\s+Certificate Sign, CRL Sign/);
    expect(issuing).toMatch(/URI:http:\/\/127\.0\.0\.1:9\/v1\/pki\/root\.crl/);
  });

  it('makes a TSA certificate with the critical timeStamping EKU and an OCSP signer with nocheck', () => {
    const tsa = text('tsa.crt');
    expect(tsa).toMatch(/NIST CURVE: P-256/);
    // Signed by the P-384 issuing CA.
    expect(tsa).toMatch(/Signature Algorithm: ecdsa-with-SHA384/);
    expect(tsa).toMatch(/Extended Key Usage: critical\s+Time Stamping\n/);
    expect(tsa).toMatch(/Key Usage: critical\s+Digital Signature, Non Repudiation/);
    const ocsp = text('ocsp.crt');
    expect(ocsp).toMatch(/NIST CURVE: P-256/);
    expect(ocsp).toMatch(/Extended Key Usage: \s*OCSP Signing/);
    expect(ocsp).toMatch(/OCSP No Check/);
    // openssl's own purpose checks for the two roles.
    const chain = ['-CAfile', join(pkiDir, 'root.crt'), '-untrusted', join(pkiDir, 'issuing.crt')];
    expect(openssl(['verify', ...chain, '-purpose', 'timestampsign', join(pkiDir, 'tsa.crt')]).out).toMatch(
      /: OK/,
    );
    expect(openssl(['verify', ...chain, '-purpose', 'ocsphelper', join(pkiDir, 'ocsp.crt')]).out).toMatch(
      /: OK/,
    );
  });

  it('chains every CA certificate to the root with openssl verify', () => {
    const r = openssl([
      'verify',
      '-CAfile',
      join(pkiDir, 'root.crt'),
      '-untrusted',
      join(pkiDir, 'issuing.crt'),
      join(pkiDir, 'issuing.crt'),
      join(pkiDir, 'tsa.crt'),
      join(pkiDir, 'ocsp.crt'),
    ]);
    expect(r.status).toBe(0);
    expect(r.out.match(/: OK/g)).toHaveLength(3);
  });

  it('stores CA keys only as ciphertext, mode 0600, that another master key cannot open', () => {
    const right = new EncryptedKeyStore(new TextEncoder().encode(MASTER_KEY));
    const wrong = new EncryptedKeyStore(new TextEncoder().encode(`${MASTER_KEY}-other`));
    for (const role of ['root', 'issuing', 'tsa', 'ocsp']) {
      const file = join(pkiDir, `${role}.key.enc`);
      const blob = readFileSync(file);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(blob.toString('latin1')).not.toMatch(/-----BEGIN|PRIVATE KEY/);
      // openssl cannot read it as a key in any encoding.
      expect(openssl(['pkey', '-in', file, '-inform', 'DER', '-noout']).status).not.toBe(0);
      expect(openssl(['pkey', '-in', file, '-noout']).status).not.toBe(0);
      // The plaintext PKCS#8 (recovered with the right key) appears nowhere in the file, not even in part.
      const pkcs8 = Buffer.from(right.open(new Uint8Array(blob), `ca:${role}`));
      expect(pkcs8[0]).toBe(0x30);
      for (let i = 0; i + 32 <= pkcs8.length; i += 32)
        expect(blob.includes(pkcs8.subarray(i, i + 32))).toBe(false);
      expect(() => wrong.open(new Uint8Array(blob), `ca:${role}`)).toThrow(/another master key/);
    }
  });

  it('loads the same CA on a later start, and refuses to start with another master key', async () => {
    const before = Object.fromEntries(
      readdirSync(pkiDir).map((n) => [n, readFileSync(join(pkiDir, n)).toString('hex')]),
    );
    const again = await createPki({
      dataDir: f.dir,
      publicUrl: 'http://127.0.0.1:9',
      masterKey: MASTER_KEY,
      isProduction: false,
      repository: new InMemoryCertRepository(),
      log: quietLog,
    });
    expect(again.rootPem).toBe(f.pki.rootPem);
    expect(Buffer.from(again.issuingDer).equals(Buffer.from(f.pki.issuingDer))).toBe(true);
    const after = Object.fromEntries(
      readdirSync(pkiDir).map((n) => [n, readFileSync(join(pkiDir, n)).toString('hex')]),
    );
    expect(after).toEqual(before);

    await expect(
      createPki({
        dataDir: f.dir,
        publicUrl: 'http://127.0.0.1:9',
        masterKey: 'a-completely-different-master-key-of-40',
        isProduction: true,
        repository: new InMemoryCertRepository(),
        log: quietLog,
      }),
    ).rejects.toThrow(/another master key/);
    expect(readFileSync(join(pkiDir, 'root.crt'), 'utf8')).toBe(f.pki.rootPem);
  });
});

describe('CA renewal at start', () => {
  it('replaces an OCSP certificate close to expiry and keeps the root, issuing CA and TSA', async () => {
    const g = await createPkiFixture();
    try {
      const ocspBefore = g.pki.ca.ocsp.cert.serialNumber;
      // 700 days on, the 2-year OCSP certificate has less than 90 days left; the 8-year TSA has years.
      const later = await createPki({
        dataDir: g.dir,
        publicUrl: 'http://127.0.0.1:9',
        masterKey: MASTER_KEY,
        isProduction: false,
        repository: new InMemoryCertRepository(),
        log: quietLog,
        now: () => new Date(Date.now() + 700 * 86_400_000),
      });
      expect(later.ca.ocsp.cert.serialNumber).not.toBe(ocspBefore);
      expect(later.ca.tsa.cert.serialNumber).toBe(g.pki.ca.tsa.cert.serialNumber);
      expect(later.rootPem).toBe(g.pki.rootPem);
      const onDisk = readFileSync(join(g.dir, 'pki', 'ocsp.crt'), 'utf8');
      expect(onDisk).toBe(later.ca.ocsp.pem);
    } finally {
      g.close();
    }
  });
});
