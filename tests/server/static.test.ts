import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from './helper.ts';

const clientDir = mkdtempSync(join(tmpdir(), 'client-'));
let t: TestApp;
beforeAll(async () => {
  mkdirSync(join(clientDir, 'assets'));
  writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>e-sign</title><div id="root"></div>');
  writeFileSync(join(clientDir, 'assets', 'index-AbC123.js'), 'console.log(1)');
  writeFileSync(join(clientDir, 'favicon.ico'), 'icon');
  // What the build writes beside each file (vite.config.ts).
  writeFileSync(
    join(clientDir, 'index.html.br'),
    brotliCompressSync(readFileSync(join(clientDir, 'index.html'))),
  );
  writeFileSync(join(clientDir, 'assets', 'index-AbC123.js.br'), brotliCompressSync('console.log(1)'));
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

  it('sends the precompressed copy to a browser that accepts it, with the same cache rules', async () => {
    const js = await t.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(js.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(js.rawPayload).toString()).toBe('console.log(1)');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const html = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br' } });
    expect(html.headers['content-encoding']).toBe('br');
    expect(html.headers['cache-control']).toBe('no-cache');
    const plain = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('a missing file is a 404 envelope, and the API still answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/nope.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json().data).toBeNull();
    const api = await t.agent().call('/v1/account/api/csign/isHyCenterLogin', { userType: 0 });
    expect(api.body.code).toBe(0);
  });
});

describe('pdf.js data files', () => {
  it('serves the CMaps and standard fonts of the installed pdfjs-dist, and nothing outside them', async () => {
    const { createRequire } = await import('node:module');
    const { dirname } = await import('node:path');
    const { readFileSync } = await import('node:fs');
    const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    const cmap = await t.app.inject({ method: 'GET', url: '/v1/pdfjs/cmaps/UniGB-UCS2-H.bcmap' });
    expect(cmap.statusCode).toBe(200);
    expect(cmap.rawPayload.equals(readFileSync(join(root, 'cmaps', 'UniGB-UCS2-H.bcmap')))).toBe(true);
    expect(cmap.headers['cache-control']).toBe('public, max-age=86400');
    const font = await t.app.inject({
      method: 'GET',
      url: '/v1/pdfjs/standard_fonts/LiberationSans-Regular.ttf',
    });
    expect(font.statusCode).toBe(200);
    for (const url of [
      '/v1/pdfjs/cmaps/../package.json',
      '/v1/pdfjs/cmaps/%2e%2e/package.json',
      '/v1/pdfjs/x/y',
    ])
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
  });
});
