import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkiFor } from '#server/modules/pki/index.ts';
import { pkijs, toArrayBuffer } from '#server/pki/crypto.ts';
import type { Pki } from '#server/pki/pki.ts';
import { TSA_POLICY_OID } from '#server/pki/profile.ts';
import { createTestApp, type TestApp } from '../helper.ts';
import { openssl, opensslBytes } from '../fixtures/pki.ts';

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

  it('writes tokens that pkijs and openssl read alike: genTime from the clock, fresh serials, the nonce, a valid signature', async () => {
    /** The TSTInfo and SignedData of a DER token, through pkijs. */
    const parse = (tokenDer: Uint8Array) => {
      const info = pkijs.ContentInfo.fromBER(toArrayBuffer(tokenDer));
      const signed = new pkijs.SignedData({ schema: info.content });
      const eContent = signed.encapContentInfo.eContent;
      if (!eContent) throw new Error('token without TSTInfo');
      return { signed, tst: pkijs.TSTInfo.fromBER(eContent.getValue()) };
    };
    const hex = (b: ArrayBuffer | Uint8Array) =>
      Buffer.from(b instanceof ArrayBuffer ? new Uint8Array(b) : b).toString('hex');
    /** "Serial number: 0x…", "Time stamp: …" and "Nonce: …" of `openssl ts -reply -text`. */
    const opensslFields = (args: string[]) => {
      const text = openssl(['ts', '-reply', ...args, '-text']).out;
      return {
        serial: BigInt(/Serial number: (0x[0-9A-F]+)/.exec(text)?.[1] ?? 'x'),
        time: /Time stamp: (.+ GMT)/.exec(text)?.[1],
        nonce: /Nonce: (\S+)/.exec(text)?.[1],
        // asn1js cannot print an arc above 2^53 (the 2.25.<uuid> policy): openssl reads it.
        policy: /Policy OID: (\S+)/.exec(text)?.[1],
      };
    };
    // openssl prints GeneralizedTime as "Nov  2 09:05:07 2026 GMT".
    const opensslTime = (d: Date) =>
      `${d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })} ${String(d.getUTCDate()).padStart(2)} ` +
      `${d.toISOString().slice(11, 19)} ${d.getUTCFullYear()} GMT`;

    // The clock is a day ahead: genTime must follow the platform clock, not the wall clock.
    t.clock.advance(24 * 3600 * 1000);
    const from = Math.floor(t.clock.now().getTime() / 1000) * 1000;
    const r = await stamp('parsed', ['-sha256', '-cert']);
    const digest = createHash('sha256').update(readFileSync(dataFile)).digest();
    const inProcess = await pki.timestamp(new Uint8Array(digest), 'SHA-256');
    const to = t.clock.now().getTime();

    // Over HTTP: the request's nonce comes back, byte for byte.
    const request = pkijs.TimeStampReq.fromBER(toArrayBuffer(readFileSync(r.query)));
    const response = pkijs.TimeStampResp.fromBER(toArrayBuffer(readFileSync(r.reply)));
    expect(response.status.status).toBe(pkijs.PKIStatus.granted);
    const tokenDer = new Uint8Array(response.timeStampToken!.toSchema().toBER());
    const http = parse(tokenDer);
    expect(request.nonce).toBeDefined();
    expect(hex(http.tst.nonce!.valueBlock.valueHexView)).toBe(hex(request.nonce!.valueBlock.valueHexView));
    const local = parse(inProcess);
    expect(local.tst.nonce).toBeUndefined();

    const serials = new Set<string>();
    for (const [tok, args] of [
      [http, ['-in', r.reply]],
      [local, ['-in', file('parsed-inproc.tst', inProcess), '-token_in']],
    ] as const) {
      const { tst, signed } = tok;
      expect(hex(tst.messageImprint.hashedMessage.valueBlock.valueHexView)).toBe(digest.toString('hex'));
      const at = tst.genTime.getTime();
      expect(at).toBeGreaterThanOrEqual(from);
      expect(at).toBeLessThanOrEqual(to);
      expect(at % 1000).toBe(0);
      // A positive 16-byte serial, the same one openssl reads.
      const serial = new Uint8Array(tst.serialNumber.valueBlock.valueHexView);
      expect(serial.length).toBe(16);
      expect(serial[0]).toBeLessThan(0x80);
      serials.add(hex(serial));
      const o = opensslFields([...args]);
      expect(o.serial).toBe(BigInt(`0x${hex(serial)}`));
      expect(o.time).toBe(opensslTime(tst.genTime));
      expect(o.policy).toBe(TSA_POLICY_OID);
      // openssl pads the nonce to whole bytes (0x0D…): compare the numbers, not their spelling.
      expect(o.nonce === 'unspecified' ? o.nonce : BigInt(o.nonce ?? 'x')).toBe(
        tst.nonce ? BigInt(`0x${hex(tst.nonce.valueBlock.valueHexView)}`) : 'unspecified',
      );
      // pkijs checks the imprint against the data, then the RSA signature over the signed attributes.
      const verdict = await signed.verify({
        signer: 0,
        data: toArrayBuffer(readFileSync(dataFile)),
        checkChain: false,
        extendedMode: true,
      });
      expect(verdict.signatureVerified).toBe(true);
    }
    expect(serials.size).toBe(2);
  });
});
