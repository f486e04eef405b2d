// Batch signing (issue 28): one person signs 500 flows waiting for them in ONE batch, with one SMS code: the
// batch prepared (500 parties checked), the code proven once, then the job `flow.signBatch` signs each party
// through the room's own path (permission checks, own certificate, PAdES B-T incremental update, blob, version
// move, audit entry, next step's link). Each flow has a second step (the launcher), so no completion work is
// counted, as in the flow bench. The job runs in this process (runDue): the worker's polling wait is not counted.
// `npm run bench -- batch` (BENCH_BATCH_PARTIES for fewer).
import '../scripts/require-node24.ts';
import { loadavg } from 'node:os';
import {
  type SignBatch,
  getSignBatch,
  listBatchSignable,
  prepareSignBatch,
  startSignBatch,
} from '#contract/calls/batch.ts';
import { uploadDocument } from '#contract/calls/document.ts';
import { launchFlow } from '#contract/calls/flow.ts';
import type { Figure } from './foundation.ts';
import { inProcessApp } from './in-process.ts';
import { contractPdf, person } from './signers.ts';

const PARTIES = Number(process.env.BENCH_BATCH_PARTIES ?? 500);

export async function run(): Promise<Figure[]> {
  const { deps, jobs, kit, close } = await inProcessApp('esign-bench-batch-', {
    FREE_SIGNING_ALLOWANCE: String(PARTIES + 10),
  });
  try {
    const pdf = await contractPdf();
    const launcher = await person(kit, '13600000000');
    const signer = await person(kit, '13600000001');
    const setupStarted = performance.now();
    for (let i = 0; i < PARTIES; i++) {
      const up = await launcher.b.call<{ documentId: string }>(uploadDocument, { userType: 0 }, pdf);
      const pos = (left: number) => [
        { documentId: up.documentId, page: 1, mm: { left, top: 200, width: 30, height: 30 } },
      ];
      await launcher.b.call(launchFlow, {
        userType: 0,
        title: `batch bench ${i + 1}`,
        documentIds: [up.documentId],
        steps: [
          { parties: [{ kind: 'person', name: 's', phone: signer.phone, positions: pos(20) }] },
          { parties: [{ kind: 'person', name: 'l', phone: launcher.phone, positions: pos(100) }] },
        ],
      });
    }
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    const { list } = await signer.b.call<{ list: { partyId: string }[] }>(listBatchSignable, {
      userType: 0,
      pageSize: 500,
    });
    if (list.length !== PARTIES) throw new Error(`${list.length} signable, expected ${PARTIES}`);

    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const prepared = await signer.b.call<{ batchId: string }>(prepareSignBatch, {
      userType: 0,
      partyIds: list.map((x) => x.partyId),
      sealChoice: { personSealId: signer.sealId },
    });
    await signer.b.call(startSignBatch, {
      userType: 0,
      batchId: prepared.batchId,
      smsCode: await kit.code(signer.phone, 'sign'),
    });
    let batch: SignBatch;
    for (;;) {
      await jobs.runDue(deps, new Date());
      batch = await signer.b.call<SignBatch>(getSignBatch, { userType: 0, batchId: prepared.batchId });
      if (batch.status === 'done') break;
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    if (batch.signed !== PARTIES)
      throw new Error(`batch signed ${batch.signed} of ${PARTIES} (${batch.failed} failed)`);
    return [
      {
        name: 'load average (1 min) while measuring; other work on the machine lowers the figure',
        value: loadavg()[0],
        unit: '',
      },
      {
        name: `set-up: ${PARTIES} flows uploaded and launched (not counted)`,
        value: setupSeconds * 1000,
        unit: 'ms',
      },
      {
        name: `${PARTIES} signatures in one batch: prepare, one SMS code, the job to done (HTTP in process, PGlite)`,
        value: seconds * 1000,
        unit: 'ms',
        budget: (30_000 * PARTIES) / 500,
      },
      {
        name: 'CPU time per signature (process.cpuUsage)',
        value: (cpu.user + cpu.system) / 1000 / PARTIES,
        unit: 'ms',
      },
      { name: 'signatures per second', value: PARTIES / seconds, unit: '/s', lowerIsBetter: false },
    ];
  } finally {
    await close();
  }
}

if (import.meta.main) {
  const { printFigures } = await import('./report.ts');
  printFigures('batch', await run());
}
