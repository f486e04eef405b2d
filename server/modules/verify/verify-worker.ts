// Entry of a verification worker thread (see worker-pool.ts): one job at a time, answered by id.
import { parentPort } from 'node:worker_threads';
import { runVerifyJob, type VerifyJob } from './verify-job.ts';

parentPort?.on('message', async (msg: { id: number; job: VerifyJob }) => {
  const result = await runVerifyJob(msg.job);
  parentPort?.postMessage({ id: msg.id, result });
});
