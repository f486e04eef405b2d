// How a kept report is stored (issue 16): gzip-compressed JSON, made and read by the server, so the database
// only ever holds a short byte string. A hostile file with thousands of signature fields makes a report of
// several MB; parsed as jsonb inside PGlite that kept tens of MB of its (never shrinking) memory resident.
import { promisify } from 'node:util';
import { constants, gunzip, gzip } from 'node:zlib';
import type { VerifyResult } from '#contract/calls/verify.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** The report as stored: its JSON, gzip-compressed (fastest level: these reports are very repetitive). */
export async function packReport(result: VerifyResult): Promise<Uint8Array> {
  const packed = await gzipAsync(JSON.stringify(result), { level: constants.Z_BEST_SPEED });
  return new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength);
}

export async function unpackReport(packed: Uint8Array): Promise<VerifyResult> {
  return JSON.parse((await gunzipAsync(packed)).toString('utf8')) as VerifyResult;
}
