import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkiFor } from '#server/modules/pki/service.ts';
import type { Pki } from '#server/pki/pki.ts';
import { TSA_POLICY_OID } from '#server/pki/profile.ts';
import { createTestApp, type TestApp } from '../helper.ts';
import { openssl, opensslBytes } from './fixture.ts';

let t: TestApp;
let pki: Pki;
let dir: string;
let rootCrt: string;
let tsaCrt: string;
let tsaChain: string;
let dataFile: string;

const file = (name: string, data: string | Uint8Array) => {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
};

beforeAll(async () => {
  t = await createTestApp({ ESIGN_MASTER_KEY: 'tsa-test-master-key-0123456789-abcdefghij' });
  pki = await pkiFor(t.deps);
  dir = join(t.deps.config.dataDir, 'pki');
  rootCrt = join(dir, 'root.crt');
  tsaCrt = join(dir, 'tsa.crt');
  tsaChain = file(
    'tsa-chain.pem',
    `${readFileSync(tsaCrt, 'utf8')}${readFileSync(join(dir, 'issuing.crt'), 'utf8')}`,
  );
  dataFile = file('contract.txt', '甲方与乙方签订的合同 / contract between A and B\n');
});
afterAll(async () => {
  await t?.close();
});

/** openssl ts -query → POST /v1/pki/tsa → the reply file. */
async function stamp(
  name: string,
  queryArgs: string[],
): Promise<{ query: string; reply: string; status: number; type?: string }> {
  const query = join(dir, `${name}.tsq`);
  opensslBytes(['ts', '-query', '-data', dataFile, ...queryArgs, '-out', query]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/pki/tsa',
    headers: { 'content-type': 'application/timestamp-query' },
    payload: readFileSync(query),
  });
  return {
    query,
    reply: file(`${name}.tsr`, res.rawPayload),
    status: res.statusCode,
    type: res.headers['content-type'] as string,
  };
}

describe('time-stamp authority (RFC 3161)', () => {
  it('grants a token that openssl ts -verify accepts against the data and the query', async () => {
    const r = await stamp('with-cert', ['-sha256', '-cert']);
    expect(r.status).toBe(200);
    expect(r.type).toBe('application/timestamp-reply');
    const text = openssl(['ts', '-reply', '-in', r.reply, '-text']).out;
    expect(text).toMatch(/Status: Granted\./);
    expect(text).toContain(`Policy OID: ${TSA_POLICY_OID}`);
    expect(text).toMatch(/Accuracy: 0x01 seconds/);
    expect(text).toMatch(/Nonce: 0x[0-9A-F]+/);

    const byData = openssl([
      'ts',
      '-verify',
      '-in',
      r.reply,
      '-data',
      dataFile,
      '-CAfile',
      rootCrt,
      '-untrusted',
      tsaCrt,
    ]);
    expect(byData.out).toMatch(/Verification: OK/);
    const byQuery = openssl([
      'ts',
      '-verify',
      '-in',
      r.reply,
      '-queryfile',
      r.query,
      '-CAfile',
      rootCrt,
      '-untrusted',
      tsaCrt,
    ]);
    expect(byQuery.out).toMatch(/Verification: OK/);

    // The same token does not vouch for other data.
    const other = file('other.txt', 'another document\n');
    const wrong = openssl([
      'ts',
      '-verify',
      '-in',
      r.reply,
      '-data',
      other,
      '-CAfile',
      rootCrt,
      '-untrusted',
      tsaCrt,
    ]);
    expect(wrong.out).toMatch(/Verification: FAILED/);
  });

  it('signs with the signing-certificate-v2 attribute and leaves certificates out when not asked', async () => {
    const r = await stamp('no-cert', ['-sha512', '-no_nonce']);
    const token = file('no-cert.p7', opensslBytes(['ts', '-reply', '-in', r.reply, '-token_out']));
    const cms = openssl(['cms', '-cmsout', '-print', '-inform', 'DER', '-in', token]).out;
    expect(cms).toMatch(/id-smime-aa-signingCertificateV2/);
    expect(cms).toMatch(/certificates:\s*<ABSENT>/);
    expect(openssl(['ts', '-reply', '-in', r.reply, '-text']).out).toMatch(/Nonce: unspecified/);
    // Without embedded certificates the verifier needs the TSA certificate and its issuing CA.
    const v = openssl([
      'ts',
      '-verify',
      '-in',
      r.reply,
      '-data',
      dataFile,
      '-CAfile',
      rootCrt,
      '-untrusted',
      tsaChain,
    ]);
    expect(v.out).toMatch(/Verification: OK/);
  });

  it('refuses SHA-1 imprints and junk with a rejection status', async () => {
    const sha1 = await stamp('sha1', ['-sha1', '-cert']);
    const text = openssl(['ts', '-reply', '-in', sha1.reply, '-text']).out;
    expect(text).toMatch(/Status: Rejected\./);
    expect(text).toMatch(/unrecognized or unsupported algorithm/);

    const junk = await t.app.inject({
      method: 'POST',
      url: '/v1/pki/tsa',
      headers: { 'content-type': 'application/timestamp-query' },
      payload: Buffer.from('not a request'),
    });
    const junkText = openssl(['ts', '-reply', '-in', file('junk.tsr', junk.rawPayload), '-text']).out;
    expect(junkText).toMatch(/Status: Rejected\./);
    expect(junkText).toMatch(/wrong format/);
  });

  it('stamps in process for the PDF signer: a token that verifies against the imprinted data', async () => {
    const digest = createHash('sha256').update(readFileSync(dataFile)).digest();
    const token = file('inproc.tst', await pki.timestamp(new Uint8Array(digest), 'SHA-256'));
    const v = openssl(['ts', '-verify', '-in', token, '-token_in', '-data', dataFile, '-CAfile', rootCrt]);
    expect(v.out).toMatch(/Verification: OK/);
    await expect(pki.timestamp(new Uint8Array(20), 'SHA-256')).rejects.toThrow(/32 bytes/);
  });
});
