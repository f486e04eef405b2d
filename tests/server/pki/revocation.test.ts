import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '#server/db/database.ts';
import { pkiFor } from '#server/modules/pki/index.ts';
import { EncryptedKeyStore } from '#server/pki/key-store.ts';
import type { Pki } from '#server/pki/pki.ts';
import { RevocationReason } from '#server/pki/profile.ts';
import { createTestApp, type TestApp } from '../helper.ts';
import { openssl, opensslAsync, opensslBytes } from '../fixtures/pki.ts';

// The PKI of a real app (database repository, DATA_DIR/pki), served by a listening fastify so that
// openssl talks HTTP to the OCSP responder as Adobe or pdfsig would.
const MASTER_KEY = 'revocation-test-master-key-0123456789-abcdef';
let t: TestApp;
let pki: Pki;
let base: string;
let dir: string;
let rootCrt: string;
let issuingPem: string;
let caBundle: string;

const file = (name: string, data: string | Uint8Array) => {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
};

beforeAll(async () => {
  t = await createTestApp({ ESIGN_MASTER_KEY: MASTER_KEY, PUBLIC_URL: 'http://127.0.0.1:9' });
  pki = await pkiFor(t.deps);
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  dir = join(t.deps.config.dataDir, 'pki');
  rootCrt = join(dir, 'root.crt');
  issuingPem = file(
    'issuing.pem',
    opensslBytes(['x509', '-inform', 'DER', '-in', file('issuing.der', pki.issuingDer)]),
  );
  caBundle = file('ca-bundle.pem', `${readFileSync(issuingPem, 'utf8')}${pki.rootPem}`);
});
afterAll(async () => {
  await t?.close();
});

async function issuePerson() {
  const holder = { userType: 0 as const, accountId: randomUUID() };
  const c = await pki.issue({ ...holder, name: '李四', idNumber: '110105194912310038' });
  return { holder, c, pem: file(`${c.serial}.pem`, c.pem) };
}

const ocspArgs = (certFile: string) => [
  'ocsp',
  '-issuer',
  issuingPem,
  '-cert',
  certFile,
  '-url',
  `${base}/v1/pki/ocsp`,
  '-CAfile',
  rootCrt,
];

describe('published CA certificates', () => {
  it('serves the root as a PEM download and the issuing CA as DER', async () => {
    const root = await t.app.inject({ method: 'GET', url: '/v1/pki/root.crt?ts=123' });
    expect(root.statusCode).toBe(200);
    expect(root.headers['content-type']).toContain('application/x-pem-file');
    expect(root.headers['content-disposition']).toMatch(/^attachment; filename=/);
    expect(root.body).toBe(readFileSync(rootCrt, 'utf8'));

    const issuing = await t.app.inject({ method: 'GET', url: '/v1/pki/issuing.crt' });
    expect(issuing.headers['content-type']).toBe('application/pkix-cert');
    expect(issuing.rawPayload.equals(Buffer.from(pki.issuingDer))).toBe(true);
    const text = openssl([
      'x509',
      '-inform',
      'DER',
      '-in',
      file('served-issuing.der', issuing.rawPayload),
      '-noout',
      '-subject',
    ]);
    expect(text.out).toMatch(/Issuing CA/);

    const rootCrl = await t.app.inject({ method: 'GET', url: '/v1/pki/root.crl' });
    const v = openssl([
      'crl',
      '-inform',
      'DER',
      '-in',
      file('root.crl', rootCrl.rawPayload),
      '-CAfile',
      rootCrt,
      '-noout',
    ]);
    expect(v.out).toMatch(/verify OK/);
  });
});

describe('OCSP responder (openssl ocsp over HTTP)', () => {
  it('says good, then revoked after revocation, with a verified signature and the nonce echoed', async () => {
    const { c, pem } = await issuePerson();
    const before = await opensslAsync(ocspArgs(pem));
    expect(before.out).toContain('Response verify OK');
    expect(before.out).toContain(`${pem}: good`);
    expect(before.out).not.toMatch(/nonce/i);

    await pki.revoke(c.serial, RevocationReason.KeyCompromise);
    const after = await opensslAsync(ocspArgs(pem));
    expect(after.out).toContain('Response verify OK');
    expect(after.out).toContain(`${pem}: revoked`);
    expect(after.out).toMatch(/Reason: keyCompromise/);
  });

  it('answers the GET form of RFC 6960 too', async () => {
    const { pem } = await issuePerson();
    const req = file('get-req.der', new Uint8Array());
    opensslBytes(['ocsp', '-issuer', issuingPem, '-cert', pem, '-no_nonce', '-reqout', req]);
    const b64 = encodeURIComponent(readFileSync(req).toString('base64'));
    const res = await t.app.inject({ method: 'GET', url: `/v1/pki/ocsp/${b64}` });
    expect(res.headers['content-type']).toBe('application/ocsp-response');
    const resp = file('get-resp.der', res.rawPayload);
    const v = openssl([
      'ocsp',
      '-reqin',
      req,
      '-respin',
      resp,
      '-no_nonce',
      '-issuer',
      issuingPem,
      '-cert',
      pem,
      '-CAfile',
      rootCrt,
    ]);
    expect(v.out).toContain('Response verify OK');
    expect(v.out).toContain(`${pem}: good`);
  });

  it('says unknown for a serial it never issued, unauthorized for another issuer, malformedRequest for junk', async () => {
    const unknown = await opensslAsync([
      'ocsp',
      '-issuer',
      issuingPem,
      '-serial',
      '0x0123456789abcdef',
      '-url',
      `${base}/v1/pki/ocsp`,
      '-CAfile',
      rootCrt,
    ]);
    expect(unknown.out).toContain('Response verify OK');
    expect(unknown.out).toMatch(/0x0123456789abcdef: unknown|0x123456789ABCDEF: unknown/i);

    const foreign = await opensslAsync([
      'ocsp',
      '-issuer',
      rootCrt,
      '-serial',
      '0x01',
      '-url',
      `${base}/v1/pki/ocsp`,
    ]);
    expect(foreign.out).toMatch(/Responder Error: unauthorized \(6\)/);

    const junk = await fetch(`${base}/v1/pki/ocsp`, {
      method: 'POST',
      headers: { 'content-type': 'application/ocsp-request' },
      body: new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x05]),
    });
    expect(junk.status).toBe(200);
    const parsed = openssl([
      'ocsp',
      '-respin',
      file('junk.der', new Uint8Array(await junk.arrayBuffer())),
      '-resp_text',
    ]);
    expect(parsed.out).toMatch(/malformedrequest \(1\)/i);
  });

  it('limits the request body and its type', async () => {
    const big = await t.app.inject({
      method: 'POST',
      url: '/v1/pki/ocsp',
      headers: { 'content-type': 'application/ocsp-request' },
      payload: Buffer.alloc(64 * 1024, 0x30),
    });
    expect(big.statusCode).toBe(413);
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/v1/pki/ocsp',
      headers: { 'content-type': 'application/x-whatever' },
      payload: Buffer.from([0x30, 0x00]),
    });
    expect(wrongType.statusCode).toBe(415);
  });
});

describe('CRL', () => {
  it('is signed by the issuing CA, lists revoked serials with reasons, and makes openssl verify refuse them', async () => {
    const good = await issuePerson();
    const bad = await issuePerson();
    await pki.revoke(bad.c.serial, RevocationReason.AffiliationChanged);

    const res = await t.app.inject({ method: 'GET', url: '/v1/pki/crl' });
    expect(res.headers['content-type']).toBe('application/pkix-crl');
    const crlDer = file('crl.der', res.rawPayload);
    const text = openssl(['crl', '-inform', 'DER', '-in', crlDer, '-CAfile', caBundle, '-noout', '-text']);
    expect(text.out).toMatch(/verify OK/);
    expect(text.out).toContain(`Serial Number: ${bad.c.serial.toUpperCase()}`);
    expect(text.out).not.toContain(`Serial Number: ${good.c.serial.toUpperCase()}`);
    expect(text.out).toMatch(/CRL Reason Code:\s+Affiliation Changed/);
    expect(text.out).toMatch(/Next Update:/);

    const crlPem = file('crl.pem', opensslBytes(['crl', '-inform', 'DER', '-in', crlDer]));
    const rootCrl = file(
      'root-crl.pem',
      opensslBytes(['crl', '-inform', 'DER', '-in', file('r.crl', pki.rootCrl)]),
    );
    const verify = (pem: string) =>
      openssl([
        'verify',
        '-crl_check_all',
        '-CRLfile',
        crlPem,
        '-CRLfile',
        rootCrl,
        '-CAfile',
        rootCrt,
        '-untrusted',
        issuingPem,
        pem,
      ]);
    expect(verify(good.pem).out).toContain(`${good.pem}: OK`);
    expect(verify(bad.pem).out).toMatch(/certificate revoked/);
  });
});

describe('keys in the database', () => {
  it('are ciphertext that only this master key opens', async () => {
    const { c } = await issuePerson();
    const rows = await queryRows<{ encrypted_key: Uint8Array }>(
      t.db,
      sql`SELECT encrypted_key FROM pki_certificates WHERE serial = ${c.serial}`,
    );
    const blob = new Uint8Array(rows[0].encrypted_key);
    expect(blob.length).toBeGreaterThan(1000);
    expect(Buffer.from(blob).toString('latin1')).not.toMatch(/BEGIN|PRIVATE KEY/);
    expect(Buffer.from(blob).includes(Buffer.from('06092a864886f70d010101', 'hex'))).toBe(false);
    const right = new EncryptedKeyStore(new TextEncoder().encode(MASTER_KEY)).open(
      blob,
      `account:${c.serial}`,
    );
    expect(right[0]).toBe(0x30);
    expect(Buffer.from(blob).includes(Buffer.from(right.subarray(40, 72)))).toBe(false);
    expect(() =>
      new EncryptedKeyStore(new TextEncoder().encode(`${MASTER_KEY}x`)).open(blob, `account:${c.serial}`),
    ).toThrow(/another master key/);
  });
});
