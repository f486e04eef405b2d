// Signing throughput of several instances: scripts/cluster.ts (Debian's PostgreSQL, s3rver, three
// instances, HAProxy in front), 100 signers of 100 flows set up through the balancer; 50 of them sign at
// once (the first round after start, shown), then the other 50 at once: the figure. Prints one line that begins with the figure (`N signatures/s …`) and where the CPU time went,
// then the figures. `npm run bench -- cluster`.
import '../scripts/require-node24.ts';
import { loadavg } from 'node:os';
import { type Cluster, cpuSeconds, startCluster } from '../scripts/cluster.ts';
import type { Figure } from './foundation.ts';
import { Browser, fetchSend, outboxCode, prepareRooms, sign } from './signers.ts';

// BENCH_CLUSTER_PARTIES: fewer signers for a quick look; the goal is stated for 50.
const PARTIES = Number(process.env.BENCH_CLUSTER_PARTIES ?? 50);
const GOAL = 100;

/** CPU seconds so far, by role. */
function cpuByRole(cluster: Cluster) {
  const p = cluster.pids();
  const sum = (pids: number[]) => pids.reduce((s, pid) => s + cpuSeconds(pid), 0);
  return {
    instances: p.instances.map(cpuSeconds),
    postgres: sum(p.postgres),
    s3: cpuSeconds(p.s3),
    balancer: cpuSeconds(p.balancer),
    signers: cpuSeconds(process.pid),
  };
}

export async function run(): Promise<Figure[]> {
  const cluster = await startCluster({
    basePort: 18500,
    env: {
      SMS_MAX_PER_IP_HOUR: '100000',
      SMS_MAX_PER_PHONE_HOUR: '1000',
      LOGIN_MAX_PER_IP: '100000',
      FREE_SIGNING_ALLOWANCE: '1000',
    },
  });
  try {
    const kit = { newBrowser: () => new Browser(fetchSend(cluster.url)), code: outboxCode(cluster.url) };
    const all = await prepareRooms(kit, { parties: 2 * PARTIES, prefix: '136', concurrency: 6 });
    // The first round after a start runs on cold servers: V8 has not compiled the signing path yet, and each
    // of PostgreSQL's 30 connections reads its catalogue caches and prepares its statements at first use. It
    // is measured and shown, not the figure: the figure is the round after it, the throughput of servers
    // that have been running.
    const firstStarted = performance.now();
    const firstRound = await Promise.allSettled(all.slice(0, PARTIES).map(sign));
    const firstRate =
      firstRound.filter((r) => r.status === 'fulfilled').length / ((performance.now() - firstStarted) / 1000);
    const rooms = all.slice(PARTIES);

    const before = cpuByRole(cluster);
    const started = performance.now();
    const results = await Promise.allSettled(rooms.map(sign));
    const seconds = (performance.now() - started) / 1000;
    const after = cpuByRole(cluster);
    const failed = results.filter((r) => r.status === 'rejected');
    const signed = results.length - failed.length;

    // Only answered signatures count; failures are named in the line.
    const rate = signed / seconds;
    const perSig = (a: number, b: number) => ((a - b) * 1000) / Math.max(signed, 1);
    const instancesMs = after.instances.map((a, i) => perSig(a, before.instances[i]));
    const pgMs = perSig(after.postgres, before.postgres);
    const s3Ms = perSig(after.s3, before.s3);
    const lbMs = perSig(after.balancer, before.balancer);
    const clientMs = perSig(after.signers, before.signers);
    const totalMs = instancesMs.reduce((s, v) => s + v, 0) + pgMs + s3Ms + lbMs + clientMs;
    const load = loadavg()[0];
    console.log(
      `${rate.toFixed(1)} signatures/s (goal ≥ ${GOAL}; ${cluster.instances.length} instances behind HAProxy, ` +
        `${PARTIES} parallel signers, PostgreSQL, s3rver; ${signed} signed in ${seconds.toFixed(2)} s wall` +
        `${failed.length ? `, ${failed.length} failed: ${(failed[0] as PromiseRejectedResult).reason}` : ''}) — CPU per signature: ` +
        `instances ${instancesMs.map((v) => v.toFixed(0)).join('+')} ms, PostgreSQL ${pgMs.toFixed(0)} ms, ` +
        `S3 ${s3Ms.toFixed(0)} ms, HAProxy ${lbMs.toFixed(1)} ms, signers (this process) ${clientMs.toFixed(0)} ms; ` +
        `total ${totalMs.toFixed(0)} ms on ${navigatorCores()} cores; load average ${load.toFixed(1)}; ` +
        `first round after start ${firstRate.toFixed(1)} signatures/s`,
    );
    return [
      {
        name: `signatures per second (${cluster.instances.length} instances, HAProxy, ${PARTIES} parallel signers, PostgreSQL, S3)`,
        value: rate,
        unit: '/s',
        budget: GOAL,
        lowerIsBetter: false,
      },
      {
        name: `signatures per second, the first round after start (${PARTIES} parallel signers, cold servers)`,
        value: firstRate,
        unit: '/s',
      },
      {
        name: 'CPU per signature, all instances',
        value: totalMs - pgMs - s3Ms - lbMs - clientMs,
        unit: 'ms',
      },
      { name: 'CPU per signature, PostgreSQL (all its processes)', value: pgMs, unit: 'ms' },
      { name: 'CPU per signature, S3 stand-in (s3rver)', value: s3Ms, unit: 'ms' },
      { name: 'CPU per signature, HAProxy', value: lbMs, unit: 'ms' },
      {
        name: 'load average (1 min) after; other work on the machine lowers the figure',
        value: load,
        unit: '',
      },
    ];
  } finally {
    await cluster.stop();
  }
}

const navigatorCores = () => globalThis.navigator?.hardwareConcurrency ?? 0;

if (import.meta.main) {
  const { printFigures } = await import('./report.ts');
  printFigures('cluster', await run());
}
