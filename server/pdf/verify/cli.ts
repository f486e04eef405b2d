/**
 * The verify CLI's work; `server/pdf/verify-cli.ts` is the entry point (see there for the contract).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { VerifyError } from './errors.ts';
import { certsFromPem } from './trust.ts';
import type { VerificationReport } from './types.ts';
import { verifyPdf } from './verify-pdf.ts';

/** Per OCSP request; the verifier's own time limit (5 s) bounds the whole. */
const OCSP_TIMEOUT_MS = 2500;

type Args = { json: boolean; file?: string; trust: string[]; maxBytes?: number; ocsp: boolean };

function parseArgs(argv: string[]): Args {
  const args: Args = { json: false, trust: [], ocsp: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') args.json = true;
    else if (a === '--trust') args.trust.push(argv[++i] ?? '');
    else if (a === '--max-bytes') args.maxBytes = Number(argv[++i]);
    else if (a === '--ocsp') args.ocsp = true;
    else if (!args.file) args.file = a;
  }
  return args;
}

function summary(r: VerificationReport, file: string): string {
  const lines = [`${file}: ${r.verdict}${r.subIndication ? ` / ${r.subIndication}` : ''}`];
  lines.push(
    `  trust aside: ${r.trustAside.verdict}${r.trustAside.subIndication ? ` / ${r.trustAside.subIndication}` : ''}`,
  );
  r.signatures.forEach((s, i) => {
    lines.push(
      `  #${i + 1} ${s.field} (${s.kind}): ${s.indication}${s.subIndication ? ` / ${s.subIndication}` : ''}`,
    );
    if (s.signer)
      lines.push(
        `     signer: ${s.signer.name ?? '?'}${s.signer.organisation ? `, ${s.signer.organisation}` : ''}`,
      );
    if (s.signedAt) lines.push(`     signed at: ${s.signedAt}`);
    if (s.timestamp)
      lines.push(
        `     time-stamp: ${s.timestamp.time} by ${s.timestamp.authority ?? '?'} (${s.timestamp.valid ? 'valid' : 'NOT valid'})`,
      );
    lines.push(
      `     intact: ${s.intact}  signature: ${s.cryptoValid}  coverage: ${s.coverage}  changes after signing: ${s.modifiedAfterSigning}`,
    );
    const revoked = s.revokedAt ? ` at ${s.revokedAt}` : '';
    const source = s.revocationSource ? ` (${s.revocationSource})` : '';
    lines.push(`     trusted: ${s.trusted}  revocation: ${s.revocation}${revoked}${source}`);
    const filled = r.formFills.find((f) => f.revision === s.revision)?.fields ?? [];
    for (const f of filled.filter((x) => s.filledFields.includes(x.name)))
      lines.push(`     filled: ${f.label} = ${f.value}`);
    for (const p of s.problems) lines.push(`     - ${p}`);
  });
  return lines.join('\n');
}

/**
 * Runs the CLI with `argv` (without node and script), writing to stdout/stderr; resolves with the exit
 * code: 0 TOTAL_PASSED, 1 any other verdict, 2 the file could not be verified.
 */
export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const fail = (code: string, message: string) => {
    if (args.json) process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
    else process.stderr.write(`error: ${message}\n`);
    return 2;
  };
  if (!args.file) return fail('USAGE', 'usage: verify [--json] [--ocsp] FILE [--trust PEM]...');
  const anchors: Uint8Array[] = [];
  const root = path.join(process.env.DATA_DIR ?? './data', 'pki', 'root.crt');
  const pems = [...(existsSync(root) ? [root] : []), ...args.trust];
  for (const p of pems) {
    try {
      const certs = certsFromPem(readFileSync(p, 'utf8'));
      if (certs.length === 0) return fail('BAD_TRUST', `no certificate in ${p}`);
      anchors.push(...certs.map((c) => c.der));
    } catch {
      return fail('BAD_TRUST', `cannot read trust file ${p}`);
    }
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(args.file));
  } catch {
    return fail('UNREADABLE', `cannot read ${args.file}`);
  }
  try {
    // --ocsp: also ask the OCSP responder named in each signing certificate (network; short time-out).
    const report = await verifyPdf(bytes, {
      trustAnchors: anchors,
      maxBytes: args.maxBytes,
      // loaded only when asked: the plain CLI's start-up time is what the benchmark measures
      revocation: args.ocsp
        ? (await import('./ocsp-client.ts')).ocspHook({ timeoutMs: OCSP_TIMEOUT_MS })
        : undefined,
      revocationTimeoutMs: OCSP_TIMEOUT_MS,
    });
    process.stdout.write(args.json ? `${JSON.stringify(report)}\n` : `${summary(report, args.file)}\n`);
    return report.verdict === 'TOTAL_PASSED' ? 0 : 1;
  } catch (err) {
    if (err instanceof VerifyError) return fail(err.code, err.message);
    return fail('UNREADABLE', (err as Error)?.message ?? 'unexpected failure');
  }
}
