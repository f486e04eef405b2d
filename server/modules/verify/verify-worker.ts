// Entry of a verification worker thread (see worker-pool.ts): jobs answered by id. Revocation questions go
// back to the main thread, which holds the database (see worker-pool.ts, RevocationQuestion).
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import type { RevocationAnswer, RevocationHook } from '../../pdf/verify/types.ts';
import { runVerifyJob, type VerifyJob } from './verify-job.ts';

let nextQuestion = 1;
const waiting = new Map<number, (answer: RevocationAnswer) => void>();

const askMain: RevocationHook = (cert, issuer) =>
  new Promise((resolve) => {
    const qid = nextQuestion++;
    waiting.set(qid, resolve);
    parentPort?.postMessage({ type: 'revocation', qid, cert, issuer });
  });

parentPort?.on(
  'message',
  async (
    msg:
      | { type?: undefined; id: number; job: VerifyJob; hasRevocation?: boolean }
      | { type: 'revocationAnswer'; qid: number; answer: RevocationAnswer },
  ) => {
    if (msg.type === 'revocationAnswer') {
      waiting.get(msg.qid)?.(msg.answer);
      waiting.delete(msg.qid);
      return;
    }
    const result = await runVerifyJob(msg.job, msg.hasRevocation ? askMain : undefined);
    // The heap still in use after the job: the pool retires a worker whose heap stays large.
    const heapUsedMb = getHeapStatistics().used_heap_size / (1024 * 1024);
    parentPort?.postMessage({ id: msg.id, result, heapUsedMb });
  },
);
