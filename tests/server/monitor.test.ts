import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.ts';

describe('GET /v1/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers ok with the database round-trip time and the Node version', async () => {
    const res = await t.agent().get('/v1/health');
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const data = res.body.data as { status: string; databaseMs: number; node: string };
    expect(data.status).toBe('ok');
    expect(data.databaseMs).toBeGreaterThanOrEqual(0);
    expect(data.node).toMatch(/^v2[4-9]\./);
  });
});
