import { execFileSync } from 'node:child_process';
import { sign as cryptoSign, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSigner, hashChunks, parseCms, verifySignatureValue } from '../../../server/pdf/verify/cms.ts';
import { buildChain, certsFromPem } from '../../../server/pdf/verify/trust.ts';

/**
 * The verifier reads CMS with its own DER walker; these signatures come from OpenSSL so that every
 * algorithm family the corpus lacks (RSA-PSS, ECDSA) and PSS-signed certificates are checked against an
 * independent implementation.
 */
const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let dir = '';
const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
const file = (name: string) => new Uint8Array(readFileSync(path.join(dir, name)));
const DATA = Buffer.from('%PDF-1.7 the signed byte ranges of a document');

type Case = { name: string; key: string[]; certSig: string[]; cms: string[] };
const CASES: Case[] = [
  {
    name: 'RSA PKCS#1 v1.5, SHA-256',
    key: ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'],
    certSig: ['-sha256'],
    cms: ['-md', 'sha256'],
  },
  {
    name: 'RSA-PSS signature and an RSA-PSS-signed certificate',
    key: ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'],
    certSig: ['-sha256', '-sigopt', 'rsa_padding_mode:pss', '-sigopt', 'rsa_pss_saltlen:32'],
    cms: ['-md', 'sha256', '-keyopt', 'rsa_padding_mode:pss', '-keyopt', 'rsa_pss_saltlen:32'],
  },
  {
    name: 'ECDSA P-256, SHA-384',
    key: ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'],
    certSig: ['-sha384'],
    cms: ['-md', 'sha384'],
  },
];

describe.skipIf(!hasOpenssl)('CMS signatures made by OpenSSL', () => {
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'verify-cms-'));
    writeFileSync(path.join(dir, 'data.bin'), DATA);
    const ca = (name: string, cn: string) =>
      ssl(
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.crt`,
        '-subj',
        `/CN=${cn}/O=Acme`,
        '-days',
        '30',
      );
    ca('ca', 'Test CA');
    ca('other', 'Other CA');
    CASES.forEach((c, i) => {
      ssl(...c.key, '-out', `k${i}.key`);
      ssl('req', '-new', '-key', `k${i}.key`, '-subj', `/CN=Signer ${i}/O=Acme`, '-out', `k${i}.csr`);
      ssl(
        'x509',
        '-req',
        '-in',
        `k${i}.csr`,
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-set_serial',
        String(100 + i),
        '-days',
        '10',
        ...c.certSig,
        '-out',
        `k${i}.crt`,
      );
      ssl('x509', '-in', `k${i}.crt`, '-outform', 'DER', '-out', `k${i}.der`);
      ssl(
        'cms',
        '-sign',
        '-binary',
        '-cades',
        '-in',
        'data.bin',
        '-signer',
        `k${i}.crt`,
        '-inkey',
        `k${i}.key`,
        ...c.cms,
        '-outform',
        'DER',
        '-out',
        `k${i}.p7s`,
      );
    });
  }, 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  CASES.forEach((c, i) => {
    it(`${c.name}: verifies, binds the certificate and chains to its CA`, () => {
      const cms = parseCms(file(`k${i}.p7s`));
      expect(cms.signerCert).toBeDefined();
      const r = checkSigner(cms, hashChunks(cms.digestAlg!, [DATA]), () => [DATA]);
      expect(r).toMatchObject({ intact: true, cryptoValid: true, certBound: true, problems: [] });
      const anchors = certsFromPem(readFileSync(path.join(dir, 'ca.crt'), 'utf8'));
      const chain = buildChain(cms.signerCert!, cms.certs, anchors, new Date());
      expect(chain.anchored).toBe(true);
      expect(chain.validAt).toBe(true);
      const strangers = certsFromPem(readFileSync(path.join(dir, 'other.crt'), 'utf8'));
      expect(buildChain(cms.signerCert!, cms.certs, strangers, new Date()).anchored).toBe(false);
    });

    it(`${c.name}: other data is a hash failure, a changed signature value a crypto failure`, () => {
      const cms = parseCms(file(`k${i}.p7s`));
      const other = Buffer.from('%PDF-1.7 something else');
      expect(checkSigner(cms, hashChunks(cms.digestAlg!, [other]), () => [other]).intact).toBe(false);
      const bytes = file(`k${i}.p7s`);
      const sig = Buffer.from(cms.signature);
      const at = Buffer.from(bytes).indexOf(sig);
      bytes[at + Math.floor(sig.length / 2)] ^= 0x01;
      const bad = parseCms(bytes);
      expect(checkSigner(bad, hashChunks(bad.digestAlg!, [DATA]), () => [DATA])).toMatchObject({
        intact: true,
        cryptoValid: false,
      });
    });

    it(`${c.name}: a certificate whose issuer signature was altered does not chain`, () => {
      const bytes = file(`k${i}.p7s`);
      const leaf = Buffer.from(file(`k${i}.der`));
      const at = Buffer.from(bytes).indexOf(leaf);
      expect(at).toBeGreaterThan(0);
      bytes[at + leaf.length - 2] ^= 0x01; // inside the certificate's signature value
      const cms = parseCms(bytes);
      const anchors = certsFromPem(readFileSync(path.join(dir, 'ca.crt'), 'utf8'));
      expect(buildChain(cms.signerCert!, cms.certs, anchors, new Date()).anchored).toBe(false);
      // the signing-certificate-v2 attribute names the original certificate, not this one
      expect(checkSigner(cms, hashChunks(cms.digestAlg!, [DATA]), () => [DATA]).certBound).toBe(false);
    });
  });

  it('refuses a signature whose algorithm does not fit the key (ECDSA labelled sha256WithRSAEncryption)', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const sig = new Uint8Array(cryptoSign('sha256', DATA, privateKey));
    const ecdsaWithSha256 = { oid: '1.2.840.10045.4.3.2' };
    const sha256WithRsa = { oid: '1.2.840.113549.1.1.11' };
    expect(verifySignatureValue(ecdsaWithSha256, 'sha256', DATA, sig, publicKey)).toBe(true);
    // node:crypto alone would check it as ECDSA and say true; OpenSSL and NSS refuse the mismatch.
    expect(verifySignatureValue(sha256WithRsa, 'sha256', DATA, sig, publicKey)).toBe(false);
  });

  it('rejects a CMS whose DER is cut short or carries a non-minimal INTEGER', () => {
    const bytes = file('k0.p7s');
    expect(() => parseCms(bytes.subarray(0, bytes.length - 10))).toThrow(/not decodable/);
    // ContentInfo { signedData, [0] { SEQUENCE { INTEGER } } }: with 02 02 00 01 the INTEGER has a
    // redundant leading zero (BER, not DER), which is refused before anything else is read
    const contentInfo = (int: number[]) => {
      const oid = [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02];
      const sd = [0x30, int.length, ...int];
      const body = [...oid, 0xa0, sd.length, ...sd];
      return Uint8Array.from([0x30, body.length, ...body]);
    };
    expect(() => parseCms(contentInfo([0x02, 0x02, 0x00, 0x01]))).toThrow(/malformed INTEGER/);
    expect(() => parseCms(contentInfo([0x02, 0x01, 0x01]))).toThrow(/SignedData is malformed/);
  });
});
