// The audit report of a completed flow is built by a job (`flow.auditReport`), not in the signer's request
// nor in a promise of the instance that completed it: queued after the completion commits (one waiting job
// per flow), run by the job system once, and queued again by the flow sweep when its send was lost.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { AUDIT_REPORT_PATH } from '#contract/calls/document.ts';
import { appForFile } from '../helper.ts';
import { type Signer, getBytes, launchForOne, openByLink, personWithCert, sign } from '../fixtures/flow.ts';

const t = appForFile({ SMS_MAX_PER_PHONE_HOUR: '100' });
let alice: Signer;
let bob: Signer;

beforeAll(async () => {
  alice = await personWithCert(t, '李四', { seal: false });
  bob = await personWithCert(t, '王五');
}, 180_000);

/** Alice launches a flow for bob, bob signs: the flow is completed. */
async function completedFlow(): Promise<string> {
  const { flowId } = await launchForOne(alice.agent, bob, { title: 'report job' });
  const room = await openByLink(t, t.agent(), bob.phone);
  const signed = await sign(t, bob.agent, room, bob.phone, { personSealId: bob.sealId! });
  expect(signed.body.data).toMatchObject({ flowStatus: 'completed' });
  return flowId;
}

const one = async <R>(q: ReturnType<typeof sql>) =>
  ((await t.db.execute(q)) as unknown as { rows: R[] }).rows;
const reportKey = async (flowId: string) =>
  (await one<{ report_key: string | null }>(sql`SELECT report_key FROM flows WHERE id = ${flowId}`))[0]
    .report_key;
const reportJobs = (flowId: string) =>
  one<{ state: string }>(
    sql`SELECT state FROM pgboss.job WHERE name = 'flow.auditReport' AND data->>'flowId' = ${flowId}
        ORDER BY created_on`,
  );

describe('the audit report as a job', () => {
  test('queued when the flow completes, built once by the job, then downloaded as stored', async () => {
    const flowId = await completedFlow();
    // Completed and consistent, the report not built yet: one job waits for a worker.
    expect(await reportKey(flowId)).toBeNull();
    expect((await reportJobs(flowId)).map((j) => j.state)).toEqual(['created']);
    await t.runDueJobs();
    const key = await reportKey(flowId);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect((await reportJobs(flowId)).map((j) => j.state)).toEqual(['completed']);
    const report = await getBytes(alice.agent, `${AUDIT_REPORT_PATH}/${flowId}`);
    expect(report.status).toBe(200);
    expect(report.type).toContain('application/pdf');
    expect(createHash('sha256').update(report.bytes).digest('hex')).toBe(key);
    // Later passes of the sweep find the report there: no second build, no second job.
    await t.runDueJobs();
    expect(await reportKey(flowId)).toBe(key);
    expect(await reportJobs(flowId)).toHaveLength(1);
  }, 120_000);

  test("a job that could not be queued at completion: the sweep queues it and it's built", async () => {
    const jobs = t.deps.jobs as { send: typeof t.deps.jobs.send };
    const send = jobs.send;
    jobs.send = async (name, data, options) => {
      if (name === 'flow.auditReport') throw new Error('job system unreachable');
      return send.call(t.deps.jobs, name, data, options);
    };
    let flowId: string;
    try {
      flowId = await completedFlow(); // the completion itself succeeds
    } finally {
      jobs.send = send;
    }
    expect(await reportJobs(flowId)).toEqual([]);
    expect(await reportKey(flowId)).toBeNull();
    await t.runDueJobs(); // flow.sweep finds the completed flow without a report and queues its job
    expect(await reportKey(flowId)).toMatch(/^[0-9a-f]{64}$/);
    expect((await reportJobs(flowId)).map((j) => j.state)).toEqual(['completed']);
  }, 120_000);
});
