// Signing throughput of the whole flow: 50 parties of 50 flows sign at the same moment through HTTP
// (app.inject: room, SMS code check, seal, own certificate, PAdES B-T incremental update, blob, version move,
// audit entry, next step's link). Each flow has a second step, so no completion work is counted.
// `npx node bench/flow.ts` or `npm run bench -- flow`.
import '../scripts/require-node24.ts';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Figure } from './foundation.ts';
import { inProcessApp } from './in-process.ts';
import { prepareRooms, sign } from './signers.ts';

// BENCH_FLOW_PARTIES: fewer parties for a quick look; the goal is stated for 50.
const PARTIES = Number(process.env.BENCH_FLOW_PARTIES ?? 50);

export async function run(): Promise<Figure[]> {
  const { kit, close } = await inProcessApp('esign-bench-flow-');

  try {
    const rooms = await prepareRooms(kit, { parties: PARTIES, prefix: '137' });
    // BENCH_FLOW_PROFILE=file.cpuprofile: a V8 CPU profile of the signing phase only (open in Chrome DevTools).
    const profileTo = process.env.BENCH_FLOW_PROFILE;
    const inspector = profileTo ? new (await import('node:inspector/promises')).Session() : undefined;
    if (inspector) {
      inspector.connect();
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.start');
    }
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await Promise.all(rooms.map(sign));
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    if (inspector && profileTo) {
      const { profile } = await inspector.post('Profiler.stop');
      writeFileSync(profileTo, JSON.stringify(profile));
      inspector.disconnect();
    }
    return [
      {
        name: 'load average (1 min) while measuring; other work on the machine lowers the figure',
        value: loadavg()[0],
        unit: '',
      },
      {
        name: `${PARTIES} parties of ${PARTIES} flows signing at once (HTTP in process, PGlite)`,
        value: seconds * 1000,
        unit: 'ms',
      },
      {
        // Steadier than the wall clock on a shared machine: CPU time of this process (user + system),
        // all threads (the thread pool's WebCrypto and fs work included).
        name: 'CPU time per signature (process.cpuUsage)',
        value: (cpu.user + cpu.system) / 1000 / PARTIES,
        unit: 'ms',
      },
      {
        name: 'signatures per second',
        value: PARTIES / seconds,
        unit: '/s',
        budget: 40,
        lowerIsBetter: false,
      },
    ];
  } finally {
    await close();
  }
}

if (import.meta.main) {
  const { printFigures } = await import('./report.ts');
  printFigures('flow', await run());
}
