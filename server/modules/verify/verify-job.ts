// The work of one verification, the same in a worker thread and in process: the verifier's report plus the
// page layout the page needs to outline each signature. Only plain data goes in and out (structured clone).
import { createHash } from 'node:crypto';
import { PdfFile } from '../../pdf/parse/document.ts';
import { VerifyError, VerifyErrorCode } from '../../pdf/verify/errors.ts';
import type { RevocationHook, VerificationReport } from '../../pdf/verify/types.ts';
import { verifyPdf } from '../../pdf/verify/verify-pdf.ts';
import { type DocumentLayout, documentLayout } from './layout.ts';

export type VerifyJob = {
  bytes: Uint8Array;
  trustAnchors: Uint8Array[];
  /** ISO time the certificates are checked at when no time-stamp proves one. */
  now: string;
  timeLimitMs: number;
  maxBytes: number;
};

export type VerifyJobResult =
  | { ok: true; report: VerificationReport; layout: DocumentLayout; sha256: string }
  | { ok: false; code: VerifyErrorCode; message: string };

const EMPTY_LAYOUT: DocumentLayout = { pages: [], widgets: {} };

/** `revocation` answers beyond the file's own data (in a worker: a call back to the main thread). */
export async function runVerifyJob(job: VerifyJob, revocation?: RevocationHook): Promise<VerifyJobResult> {
  const bytes = job.bytes;
  try {
    const report = await verifyPdf(bytes, {
      trustAnchors: job.trustAnchors,
      now: new Date(job.now),
      timeLimitMs: job.timeLimitMs,
      maxBytes: job.maxBytes,
      revocation,
    });
    let layout = EMPTY_LAYOUT;
    try {
      const started = performance.now();
      layout = documentLayout(
        new PdfFile(bytes, () => {
          if (performance.now() - started > job.timeLimitMs) throw new Error('layout took too long');
        }),
      );
    } catch {
      // The outlines are a convenience; the verdict stands without them.
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    return { ok: true, report, layout, sha256 };
  } catch (err) {
    if (err instanceof VerifyError) return { ok: false, code: err.code, message: err.message };
    return { ok: false, code: VerifyErrorCode.Unreadable, message: (err as Error)?.message ?? String(err) };
  }
}
