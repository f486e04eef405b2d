// Entry of the thread that reads one uploaded sheet (sheet-reader.ts): a crafted file that would spin or
// swell is stopped by the reader's time limit and this thread's heap limit, never the server's main thread.
import { parentPort } from 'node:worker_threads';
import { AppError } from '../../http/app-error.ts';
import { readSheet } from './sheet.ts';

parentPort?.once('message', (msg: { bytes: Uint8Array; fileName: string }) => {
  try {
    parentPort?.postMessage({ rows: readSheet(msg.bytes, msg.fileName) });
  } catch (err) {
    // A refusal travels as its text; anything else as unreadable.
    parentPort?.postMessage({
      refusal: err instanceof AppError && typeof err.text !== 'string' ? err.text : null,
    });
  }
});
