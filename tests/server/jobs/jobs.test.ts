// The job system (server/jobs): pg-boss over the test's database, run by hand with the test's clock.
import { afterEach, describe, expect, it } from 'vitest';
import type { AppDeps } from '#server/deps.ts';
import type { ServerModule } from '#server/modules/server-module.ts';
import { type TestApp, createTestApp } from '../helper.ts';

const MINUTE = 60_000;

/** A module with one job that fails its first `failures` attempts, and one cron sweep. */
function jobModule(failures: number) {
  const runs: { name: string; data: unknown; retryCount: number }[] = [];
  let attempts = 0;
  const module: ServerModule = {
    name: 'jobs-test',
    register() {},
    jobs: [
      {
        name: 'test.flaky',
        retryLimit: 3,
        retryDelaySeconds: 60,
        retryBackoff: false,
        async handler(job) {
          attempts += 1;
          runs.push({ name: job.name, data: job.data, retryCount: job.retryCount });
          if (attempts <= failures) throw new Error(`attempt ${attempts} fails`);
        },
      },
      {
        name: 'test.once',
        singleton: true,
        async handler(job) {
          runs.push({ name: job.name, data: job.data, retryCount: job.retryCount });
        },
      },
      {
        name: 'test.sweep',
        cron: '* * * * *',
        async handler(job, deps: AppDeps) {
          runs.push({ name: job.name, data: deps.clock.now().toISOString(), retryCount: job.retryCount });
        },
      },
    ],
  };
  return { module, runs };
}

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

describe('jobs', () => {
  it('runs a job once, only when its time has come by the test clock', async () => {
    const { module, runs } = jobModule(0);
    t = await createTestApp({}, { modules: [module] });
    const startAfter = new Date(t.clock.now().getTime() + 10 * MINUTE);
    expect(await t.deps.jobs.send('test.flaky', { n: 1 }, { startAfter })).toBeTruthy();
    await t.runDueJobs();
    expect(runs.filter((r) => r.name === 'test.flaky')).toEqual([]);
    expect(runs.filter((r) => r.name === 'test.sweep')).toHaveLength(1);

    t.clock.advance(11 * MINUTE);
    await t.runDueJobs();
    await t.runDueJobs();
    expect(runs.filter((r) => r.name === 'test.flaky')).toEqual([
      { name: 'test.flaky', data: { n: 1 }, retryCount: 0 },
    ]);
  });

  it('retries a failed job after its delay, by the test clock', async () => {
    const { module, runs } = jobModule(2);
    t = await createTestApp({}, { modules: [module] });
    await t.deps.jobs.send('test.flaky', { n: 2 });
    await t.runDueJobs();
    expect(runs.filter((r) => r.name === 'test.flaky').map((r) => r.retryCount)).toEqual([0]);
    // Within the minute of delay nothing runs again.
    t.clock.advance(30_000);
    await t.runDueJobs();
    expect(runs.filter((r) => r.name === 'test.flaky')).toHaveLength(1);
    t.clock.advance(MINUTE);
    await t.runDueJobs();
    t.clock.advance(2 * MINUTE);
    await t.runDueJobs();
    // It succeeded on its third attempt: never run again.
    t.clock.advance(10 * MINUTE);
    await t.runDueJobs();
    expect(runs.filter((r) => r.name === 'test.flaky').map((r) => r.retryCount)).toEqual([0, 1, 2]);
  });

  it('keeps one waiting job per singleton key', async () => {
    const { module, runs } = jobModule(0);
    t = await createTestApp({}, { modules: [module] });
    const startAfter = new Date(t.clock.now().getTime() + 10 * MINUTE);
    expect(await t.deps.jobs.send('test.once', { n: 1 }, { singletonKey: 'k', startAfter })).toBeTruthy();
    expect(await t.deps.jobs.send('test.once', { n: 2 }, { singletonKey: 'k', startAfter })).toBeNull();
    expect(await t.deps.jobs.send('test.once', { n: 3 }, { singletonKey: 'other', startAfter })).toBeTruthy();
    // On a job not defined as a singleton the key would not hold: refused.
    await expect(t.deps.jobs.send('test.flaky', { n: 4 }, { singletonKey: 'k' })).rejects.toThrow(
      /singleton/,
    );
    t.clock.advance(11 * MINUTE);
    await t.runDueJobs();
    // (Jobs due at the same moment run in no set order.)
    const ran = runs.filter((r) => r.name === 'test.once').map((r) => (r.data as { n: number }).n);
    expect(ran.sort()).toEqual([1, 3]);
    // Once it ran, the key is free again.
    expect(await t.deps.jobs.send('test.once', { n: 5 }, { singletonKey: 'k' })).toBeTruthy();
  });

  it('refuses a job nobody defined', async () => {
    t = await createTestApp();
    await expect(t.deps.jobs.send('nobody.defines.this', {})).rejects.toThrow(/no job is defined/);
  });
});
