import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from './helper.ts';

const clientDir = mkdtempSync(join(tmpdir(), 'client-'));
let t: TestApp;
beforeAll(async () => {
  mkdirSync(join(clientDir, 'assets'));
  writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>e-sign</title><div id="root"></div>');
  writeFileSync(join(clientDir, 'assets', 'index-AbC123.js'), 'console.log(1)');
  writeFileSync(join(clientDir, 'favicon.ico'), 'icon');
  t = await createTestApp({ CLIENT_DIR: clientDir });
});
afterAll(async () => {
  await t.close();
  rmSync(clientDir, { recursive: true, force: true });
});

describe('the built client', () => {
  it('serves index.html at / with no-cache, ignoring the ts parameter', async () => {
    for (const url of ['/', `/?ts=${Date.now()}`, '/index.html']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    }
  });

  it('caches hashed assets for a year', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/assets/index-AbC123.js?ts=1` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('a missing file is a 404 envelope, and the API still answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/nope.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json().data).toBeNull();
    const api = await t.agent().call('/v1/account/api/csign/isHyCenterLogin', { userType: 0 });
    expect(api.body.code).toBe(0);
  });
});
