// Revocation beyond the file's own data: the verifier's hook, backed here by the platform's real certificate
// repository (platformRevocation), against signatures with and without a time-stamp and a DSS written
// before the revocation; and the CLI's --ocsp asking a real responder over HTTP.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformRevocation } from '#server/modules/verify/testing.ts';
import { addValidationData } from '#server/pdf/sign/ltv.ts';
import type { Signer } from '#server/pdf/sign/cms.ts';
import { signPdf } from '#server/pdf/sign/sign-pdf.ts';
import { ocspHook, ocspUrls } from '#server/pdf/verify/ocsp-client.ts';
import type { RevocationHook } from '#server/pdf/verify/types.ts';
import { verifyPdf } from '#server/pdf/verify/verify-pdf.ts';
import { RevocationReason } from '#server/pki/profile.ts';
import { createPkiFixture, type PkiFixture } from '../fixtures/pki.ts';
import { repoRoot } from '../fixtures/pdf-corpus.ts';
import { contractSealPdf, makePdf, partySigner } from '../fixtures/pdf-signing.ts';

const HOUR = 60 * 60_000;
let nowMs = Date.now();
const clock = () => new Date(nowMs);
/** The repository keeps revocation times in whole seconds, as CRLs and OCSP carry them. */
const wholeSeconds = () => new Date(Math.floor(nowMs / 1000) * 1000).toISOString();

let fx: PkiFixture;
let hook: RevocationHook;
let unsigned: Uint8Array;

beforeAll(async () => {
  fx = await createPkiFixture({ now: clock });
  hook = platformRevocation(fx.pki.issuingDer, (serial) => fx.repository.findBySerial(serial));
  unsigned = await makePdf({ pages: 1 });
}, 60_000);
afterAll(() => fx?.close());

/** A new account with its own certificate, so each test revokes only its own. */
async function account(id: string): Promise<{ signer: Signer; serial: string }> {
  const signer = await partySigner(fx, id, `Signer ${id}`);
  const cert = await fx.pki.current({ userType: 0, accountId: id });
  if (!cert) throw new Error('no certificate');
  return { signer, serial: cert.serial };
}

async function sign(signer: Signer, withTimestamp: boolean): Promise<Uint8Array> {
  return signPdf(unsigned, {
    signer,
    timestamp: withTimestamp ? (imprint) => fx.pki.timestamp(imprint) : undefined,
    appearance: { pdf: await contractSealPdf() },
    placement: { pageIndex: 0, rect: [100, 100, 220, 220] },
    fieldName: 'party',
    signingTime: clock(),
  });
}

const verify = (
  bytes: Uint8Array,
  opts: { revocation?: RevocationHook; revocationTimeoutMs?: number } = {},
) => verifyPdf(bytes, { trustAnchors: [fx.pki.ca.root.der], now: clock(), ...opts });

describe('revocation hook', () => {
  it('without the hook nothing in the file answers: unknown; with it the platform says good', async () => {
    const { signer } = await account('good');
    const signed = await sign(signer, true);
    const plain = await verify(signed);
    expect(plain.verdict).toBe('TOTAL_PASSED');
    expect(plain.signatures[0].revocation).toBe('unknown');
    const asked = await verify(signed, { revocation: hook });
    expect(asked.verdict).toBe('TOTAL_PASSED');
    expect(asked.signatures[0]).toMatchObject({
      revocation: 'good',
      revocationSource: 'platform',
      revokedAt: null,
    });
  });

  it('revoked after the time-stamp, after a DSS that says good: still passes, shown as revoked with its time', async () => {
    const { signer, serial } = await account('later');
    const signed = await sign(signer, true);
    // The DSS carries the CRL of signing time, which lists nothing against this certificate.
    const withDss = addValidationData(signed, { crls: [await fx.pki.crl()] });
    const before = await verify(withDss);
    expect(before.signatures[0]).toMatchObject({ revocation: 'good', revocationSource: 'dss' });

    nowMs += HOUR;
    await fx.pki.revoke(serial, RevocationReason.KeyCompromise);
    const revokedAt = wholeSeconds();
    nowMs += HOUR;

    // The file alone still says good: its DSS was written before the revocation.
    expect((await verify(withDss)).signatures[0].revocation).toBe('good');
    const r = await verify(withDss, { revocation: hook });
    const [s] = r.signatures;
    expect(r.verdict).toBe('TOTAL_PASSED');
    expect(s).toMatchObject({
      indication: 'TOTAL_PASSED',
      trusted: true,
      revocation: 'revoked',
      revokedAt,
      revocationSource: 'platform',
    });
    expect(new Date(s.timestamp?.time ?? '').getTime()).toBeLessThan(new Date(revokedAt).getTime());
    expect(s.problems.join(' ')).toMatch(
      /revoked on .* \(platform\), reason: keyCompromise, after the time-stamp/,
    );
  });

  it('no time-stamp, then revoked: INDETERMINATE / REVOKED_NO_POE (nothing proves it was signed before)', async () => {
    const { signer, serial } = await account('no-ts');
    const signed = await sign(signer, false);
    expect((await verify(signed, { revocation: hook })).verdict).toBe('TOTAL_PASSED');
    nowMs += HOUR;
    await fx.pki.revoke(serial);
    const r = await verify(signed, { revocation: hook });
    expect(r.verdict).toBe('INDETERMINATE');
    expect(r.subIndication).toBe('REVOKED_NO_POE');
    expect(r.signatures[0]).toMatchObject({
      trusted: false,
      revocation: 'revoked',
      revokedAt: wholeSeconds(),
    });
  });

  it('time-stamped after the revocation (a key used once revoked): TOTAL_FAILED / REVOKED', async () => {
    const { signer, serial } = await account('after');
    nowMs += HOUR;
    await fx.pki.revoke(serial);
    nowMs += 60_000;
    const signed = await sign(signer, true);
    const r = await verify(signed, { revocation: hook });
    expect(r.verdict).toBe('TOTAL_FAILED');
    expect(r.subIndication).toBe('REVOKED');
    expect(r.signatures[0].trusted).toBe(false);
    // Without the platform's answer the same file would pass: the hook is what catches it.
    expect((await verify(signed)).verdict).toBe('TOTAL_PASSED');
  });

  it('a hook that fails or never answers leaves the file data standing, within the time limit', async () => {
    const { signer } = await account('broken-hook');
    const signed = await sign(signer, true);
    const failing: RevocationHook = async () => {
      throw new Error('responder down');
    };
    const silent: RevocationHook = () => new Promise(() => {});
    expect((await verify(signed, { revocation: failing })).signatures[0].revocation).toBe('unknown');
    const started = Date.now();
    const r = await verify(signed, { revocation: silent, revocationTimeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(r.verdict).toBe('TOTAL_PASSED');
    expect(r.signatures[0].revocation).toBe('unknown');
  });

  it("the platform hook answers only for its own issuing CA's certificates", async () => {
    const { signer } = await account('foreign');
    const signed = await sign(signer, true);
    // The same repository, but another CA named as issuer: no answer, however the serial matches.
    const otherIssuer = platformRevocation(fx.pki.ca.root.der, (serial) =>
      fx.repository.findBySerial(serial),
    );
    expect((await verify(signed, { revocation: otherIssuer })).signatures[0].revocation).toBe('unknown');
  });
});

describe('asking the OCSP responder of the certificate over HTTP (CLI --ocsp)', () => {
  let server: Server;
  let online: PkiFixture;
  let requests = 0;

  beforeAll(async () => {
    // The platform's own responder behind a local HTTP server; the certificates' AIA points at it.
    server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', async () => {
        requests++;
        const answer = await online.pki.respondOcsp(new Uint8Array(Buffer.concat(parts)));
        res.writeHead(200, { 'content-type': 'application/ocsp-response' }).end(Buffer.from(answer));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // Real time: the CLI checks certificates at its own now.
    online = await createPkiFixture({ publicUrl: `http://127.0.0.1:${port}` });
  }, 60_000);
  afterAll(() => {
    server?.close();
    online?.close();
  });

  const cli = async (...args: string[]) => {
    try {
      const { stdout } = await promisify(execFile)('npx', ['node', 'server/pdf/verify-cli.ts', ...args], {
        cwd: repoRoot,
        env: { ...process.env, DATA_DIR: online.dir },
      });
      return { stdout, code: 0 };
    } catch (err) {
      const e = err as { stdout: string; code: number };
      return { stdout: e.stdout, code: e.code };
    }
  };

  it('reads the address from the AIA, sees good, then the revocation with its time', async () => {
    const id = 'online';
    const signer = await partySigner(online, id, 'Online Signer');
    const cert = await online.pki.current({ userType: 0, accountId: id });
    if (!cert) throw new Error('no certificate');
    expect(ocspUrls(signer.certificateChain[0])[0] ?? '').toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const signed = await signPdf(unsigned, {
      signer,
      appearance: { pdf: await contractSealPdf() },
      placement: { pageIndex: 0, rect: [100, 100, 220, 220] },
      fieldName: 'party',
    });
    const file = online.file('online.pdf', signed);
    const before = await cli('--json', '--ocsp', file);
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout).signatures[0]).toMatchObject({ revocation: 'good' });
    expect(requests).toBeGreaterThan(0);

    const revokedFrom = Math.floor(Date.now() / 1000) * 1000;
    await online.pki.revoke(cert.serial);
    const after = await cli('--json', '--ocsp', file);
    const report = JSON.parse(after.stdout);
    expect(after.code).toBe(1);
    expect(report.subIndication).toBe('REVOKED_NO_POE');
    expect(report.signatures[0].revocation).toBe('revoked');
    const revokedAt = new Date(report.signatures[0].revokedAt).getTime();
    expect(revokedAt).toBeGreaterThanOrEqual(revokedFrom);
    expect(revokedAt).toBeLessThanOrEqual(Date.now());
    expect(report.signatures[0].revocationSource).toMatch(/^http:/);
    // Without --ocsp the file alone knows nothing of it.
    expect(JSON.parse((await cli('--json', file)).stdout).signatures[0].revocation).toBe('unknown');
  }, 60_000);

  it('an unreachable responder leaves the answer unknown within the time-out', async () => {
    const { signer } = await account('offline');
    const signed = await sign(signer, true);
    // fx's certificates point at 127.0.0.1:9 (discard): nothing answers there.
    const started = Date.now();
    const r = await verify(signed, { revocation: ocspHook({ timeoutMs: 500 }), revocationTimeoutMs: 1000 });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(r.signatures[0].revocation).toBe('unknown');
    expect(r.verdict).toBe('TOTAL_PASSED');
  });
});
