import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getServiceStatus, MONITORED_SERVICES, type ServiceCheck } from '#contract/calls/monitor.ts';
import { serviceStatus } from '../../../server/modules/monitor/testing.ts';
import { createTestApp, type TestApp } from '../helper.ts';

type Status = { state: string; checkedAt: string; services: ServiceCheck[] };

describe('getServiceStatus (the /monitor screen)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('checks database, storage, CA and TSA without a login, each up with its time', async () => {
    const res = await t.agent().call<Status>(getServiceStatus, { userType: 0 });
    expect(res.body.code).toBe(0);
    const { state, services, checkedAt } = res.body.data;
    expect(state).toBe('up');
    expect(services.map((s) => s.service)).toEqual([...MONITORED_SERVICES]);
    for (const s of services) {
      expect(s, s.service).toMatchObject({ state: 'up', problem: null });
      expect(s.ms).toBeGreaterThanOrEqual(0);
    }
    // The TSA signs a token: that takes measurable time, unlike a constant.
    expect(services.find((s) => s.service === 'tsa')!.ms).toBeGreaterThan(0);
    expect(Date.parse(checkedAt)).not.toBeNaN();
  });

  it('the probe blob is really written to the storage', async () => {
    await t.agent().call(getServiceStatus, { userType: 0 });
    const key = (await import('node:crypto'))
      .createHash('sha256')
      .update('esign-monitor-probe/v1')
      .digest('hex');
    expect(await t.deps.storage.has(key)).toBe(true);
  });

  it('a failing service is down with a short reason and no internal message; the others stay up', async () => {
    const status = await serviceStatus(t.deps, {
      storage: async () => {
        throw new Error('EACCES: permission denied, open /secret/path');
      },
    });
    expect(status.state).toBe('down');
    const storage = status.services.find((s) => s.service === 'storage')!;
    expect(storage).toMatchObject({ state: 'down', problem: 'check failed' });
    expect(JSON.stringify(status)).not.toContain('/secret/path');
    expect(status.services.filter((s) => s.state === 'up').map((s) => s.service)).toEqual([
      'database',
      'ca',
      'tsa',
    ]);
  });

  it('a check that hangs is down after the time-out', async () => {
    const status = await serviceStatus(t.deps, { ca: () => new Promise(() => {}) }, 50);
    const ca = status.services.find((s) => s.service === 'ca')!;
    expect(ca.state).toBe('down');
    expect(ca.problem).toBe('no answer within 50 ms');
    expect(ca.ms).toBeGreaterThanOrEqual(45);
  });

  it('the liveness endpoint stays as it was', async () => {
    const res = await t.agent().get('/v1/health');
    expect(res.status).toBe(200);
  });
});
