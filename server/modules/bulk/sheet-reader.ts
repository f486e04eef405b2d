// Reading an uploaded sheet on a thread of its own, with a time limit (BULK_LIMITS.parseMs) and a heap limit:
// the thread is ended when either is passed, and the upload refused with the limit named.
import { Worker } from 'node:worker_threads';
import { BULK_LIMITS } from '#contract/calls/bulk.ts';
import { Code } from '#contract/codes.ts';
import { AppError } from '../../http/app-error.ts';
import type { Text } from '../../lib/text.ts';
import type { Cell } from './sheet.ts';
import { B } from './texts.ts';

/** The heap a sheet's thread may use (a 2 MB xlsx is a zip: its XML may be far larger). */
const HEAP_MB = 256;

export function readSheetInThread(bytes: Uint8Array, fileName: string): Promise<Cell[][]> {
  if (bytes.length > BULK_LIMITS.fileBytes)
    return Promise.reject(new AppError(Code.Refused, B.fileTooLarge(BULK_LIMITS.fileBytes / 1024 / 1024)));
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./sheet-worker.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    });
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      f();
    };
    // The thread's start-up (loading the reader) is not the sheet's fault: a second more is allowed for it.
    const timer = setTimeout(
      () => settle(() => reject(new AppError(Code.Refused, B.tooSlow(BULK_LIMITS.parseMs / 1000)))),
      BULK_LIMITS.parseMs + 1000,
    );
    worker.once('message', (msg: { rows?: Cell[][]; refusal?: Text | null }) =>
      settle(() =>
        msg.rows ? resolve(msg.rows) : reject(new AppError(Code.Refused, msg.refusal ?? B.unreadable)),
      ),
    );
    // Out of heap (ERR_WORKER_OUT_OF_MEMORY) or any other failure of the thread: an unreadable sheet.
    worker.once('error', () => settle(() => reject(new AppError(Code.Refused, B.unreadable))));
    worker.once('exit', () => settle(() => reject(new AppError(Code.Refused, B.unreadable))));
    worker.postMessage({ bytes, fileName });
  });
}
