// Signing throughput of the whole flow: 50 parties of 50 flows sign at the same moment through HTTP
// (app.inject: room, SMS code check, seal, own certificate, PAdES B-T incremental update, blob, version move,
// audit entry, next step's link). Each flow has a second step, so no completion work is counted.
// `npx node bench/flow.ts` or `npm run bench -- flow`.
import '../scripts/require-node24.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { buildApp, createHooks, createJobs } from '#server/app.ts';
import { PerApp } from '#server/lib/per-app.ts';
import { loadConfig } from '#server/config.ts';
import { closeDatabase, openDatabase } from '#server/db/database.ts';
import { type AppDeps, systemClock } from '#server/deps.ts';
import { OutboxMessenger, listOutbox } from '#server/messaging/messenger.ts';
import { LocalBlobStore } from '#server/storage/local-blob-store.ts';
import type { Figure } from './foundation.ts';
import { Browser, type SignerKit, prepareRooms, sign } from './signers.ts';

// BENCH_FLOW_PARTIES: fewer parties for a quick look; the goal is stated for 50.
const PARTIES = Number(process.env.BENCH_FLOW_PARTIES ?? 50);

/** An app in this process on an in-memory PGlite, its jobs run by hand, and signers' browsers over app.inject. */
export async function inProcessApp(prefix: string, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: 'memory://',
    SMS_MAX_PER_IP_HOUR: '100000',
    SMS_MAX_PER_PHONE_HOUR: '1000',
    FREE_SIGNING_ALLOWANCE: '1000',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const log = pino({ level: 'silent' });
  const db = await openDatabase(config);
  const jobs = createJobs({ db, log, config });
  const deps: AppDeps = {
    config,
    db,
    storage: new LocalBlobStore(join(dataDir, 'blobs')),
    log,
    clock: systemClock,
    hooks: createHooks(),
    jobs,
    perApp: new PerApp(),
    messenger: new OutboxMessenger({ db, log, clock: systemClock, isProduction: false }),
  };
  const app = await buildApp(deps);
  await app.ready();

  const kit: SignerKit = {
    newBrowser: () =>
      new Browser(async ({ url, headers, cookies, payload }) => {
        const res = await app.inject({ method: 'POST', url, headers, cookies, payload });
        const set = res.headers['set-cookie'];
        return {
          status: res.statusCode,
          setCookies: (Array.isArray(set) ? set : set ? [set] : []) as string[],
          body: res.body,
        };
      }),
    code: async (phone, purpose) => {
      const hit = (await listOutbox(db, { to: phone, limit: 10 })).find(
        (m) => m.code && m.purpose === purpose,
      );
      if (!hit?.code) throw new Error(`no ${purpose} code for ${phone}`);
      return hit.code;
    },
  };
  return {
    deps,
    jobs,
    kit,
    async close() {
      await app.close();
      await jobs.stop();
      await closeDatabase(db);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

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
