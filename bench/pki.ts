// PKI budgets (issue 4): certificate issue including RSA-2048 key generation (median ≤ 150 ms), plus the
// costs the signing path pays per signature (time-stamp token, OCSP answer) and the CA's first start.
// Runs alone with `npx node bench/pki.ts`, or as part of `npm run bench`.
import '../scripts/require-node24.ts';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as asn1js from 'asn1js';
import { InMemoryCertRepository } from '../server/pki/cert-repository.ts';
import { pkijs, toArrayBuffer, x509 } from '../server/pki/crypto.ts';
import { createPki } from '../server/pki/pki.ts';
import type { Figure } from './foundation.ts';
import { median } from './lib.ts';

const RUNS = 30;
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function timeRuns(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

/** An OCSP request for one certificate of the issuing CA, built the way a relying party does. */
async function ocspRequestFor(certPem: string, issuerDer: Uint8Array): Promise<Uint8Array> {
  const cert = pkijs.Certificate.fromBER(
    toArrayBuffer(new Uint8Array(new x509.X509Certificate(certPem).rawData)),
  );
  const issuer = pkijs.Certificate.fromBER(toArrayBuffer(issuerDer));
  const req = new pkijs.OCSPRequest();
  await req.createForCertificate(cert, { hashAlgorithm: 'SHA-256', issuerCertificate: issuer });
  return new Uint8Array(req.toSchema(true).toBER());
}

export async function run(): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'esign-bench-pki-'));
  try {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const pki = await createPki({
      dataDir,
      publicUrl: 'http://127.0.0.1:8080',
      masterKey: 'bench-master-key-0123456789-abcdefghijklmnop',
      isProduction: false,
      repository: new InMemoryCertRepository(),
      log: quiet,
    });
    const caMs = performance.now() - started;
    // CPU of every thread of this process (key generation runs on the thread pool): load-independent.
    const caCpu = process.cpuUsage(cpuStarted);

    // Warm-up: the first call pays module and provider initialisation.
    await pki.issue({ userType: 0, accountId: randomUUID(), name: '预热', idNumber: '110105194912310038' });
    let lastPem = '';
    const issue = await timeRuns(RUNS, async (i) => {
      const c = await pki.issue({
        userType: 0,
        accountId: randomUUID(),
        name: `张三${i}`,
        idNumber: '11010519491231002X',
      });
      lastPem = c.pem;
    });

    const imprint = new Uint8Array(createHash('sha256').update('bench').digest());
    const tsaCpuStarted = process.cpuUsage();
    const tsa = await timeRuns(RUNS, () => pki.timestamp(imprint, 'SHA-256'));
    const tsaCpu = process.cpuUsage(tsaCpuStarted);

    const ocspReq = await ocspRequestFor(lastPem, pki.issuingDer);
    const ocsp = await timeRuns(RUNS, async () => {
      const der = await pki.respondOcsp(ocspReq);
      const status = (asn1js.fromBER(toArrayBuffer(der)).result as asn1js.Sequence).valueBlock
        .value[0] as asn1js.Enumerated;
      if (status.valueBlock.valueDec !== 0) throw new Error('OCSP responder did not answer successfully');
    });
    const crl = await timeRuns(10, () => pki.crl());

    return [
      {
        name: `certificate issue incl. RSA-2048 key generation, median of ${RUNS}`,
        value: median(issue),
        unit: 'ms',
        budget: 150,
      },
      { name: 'certificate issue, p90', value: percentile(issue, 90), unit: 'ms' },
      { name: `time-stamp token (in process), median of ${RUNS}`, value: median(tsa), unit: 'ms' },
      {
        name: 'time-stamp token, CPU time each',
        value: (tsaCpu.user + tsaCpu.system) / 1000 / RUNS,
        unit: 'ms',
      },
      { name: `OCSP response, median of ${RUNS}`, value: median(ocsp), unit: 'ms' },
      { name: 'CRL, median of 10', value: median(crl), unit: 'ms' },
      { name: 'CA first start (root, issuing, TSA, OCSP keys)', value: caMs, unit: 'ms' },
      { name: 'CA first start, CPU time', value: (caCpu.user + caCpu.system) / 1000, unit: 'ms' },
    ];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { printFigures } = await import('./report.ts');
  printFigures('pki', await run());
}
