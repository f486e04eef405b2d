import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { buildIdOf, entryScriptOf, watchForUpdate } from '@/lib/offline-worker.ts';

type Route = 'none' | 'cache-first' | 'network-first' | 'network-first-shell';
type SwApi = {
  routeFor(req: { method: string; url: string; mode?: string }, origin: string): Route;
  cacheNames(build: string): { shell: string; assets: string };
  assetsOf(html: string): string[];
  isCacheable(res: { ok: boolean; status: number; type: string } | null): boolean;
};

// The worker exactly as the browser gets it (public/sw.js), evaluated outside a worker scope.
const source = readFileSync(resolve(import.meta.dirname, '../../../../public/sw.js'), 'utf8');
const sandbox = { module: { exports: {} as SwApi }, URL };
runInNewContext(source, sandbox);
const sw = sandbox.module.exports;

const ORIGIN = 'https://esign.example.com';
const get = (path: string, mode = 'cors') => ({ method: 'GET', url: `${ORIGIN}${path}`, mode });

describe('offline worker routing', () => {
  it('never answers the API: /v1/* is not intercepted, whatever the method', () => {
    expect(sw.routeFor(get('/v1/health'), ORIGIN)).toBe('none');
    expect(sw.routeFor(get('/v1/account/api/csign/getQuota'), ORIGIN)).toBe('none');
    expect(sw.routeFor(get('/v1/document/download?ts=1'), ORIGIN)).toBe('none');
    expect(sw.routeFor({ method: 'POST', url: `${ORIGIN}/v1/account/api/csign/signDocument` }, ORIGIN)).toBe(
      'none',
    );
  });

  it('hashed assets are cache-first', () => {
    expect(sw.routeFor(get('/assets/index-BXk3a9Qz.js'), ORIGIN)).toBe('cache-first');
    expect(sw.routeFor(get('/assets/signing-room-page-D1x.css'), ORIGIN)).toBe('cache-first');
  });

  it('navigations and index.html are network-first with the shell as fallback', () => {
    expect(sw.routeFor(get('/', 'navigate'), ORIGIN)).toBe('network-first-shell');
    expect(sw.routeFor(get('/index.html'), ORIGIN)).toBe('network-first-shell');
    expect(sw.routeFor(get('/?fromPtCode=ZYPT', 'navigate'), ORIGIN)).toBe('network-first-shell');
  });

  it('leaves alone other origins, non-GET requests and its own script', () => {
    expect(sw.routeFor({ method: 'GET', url: 'https://cdn.example.net/assets/x.js' }, ORIGIN)).toBe('none');
    expect(sw.routeFor({ method: 'PUT', url: `${ORIGIN}/assets/x.js` }, ORIGIN)).toBe('none');
    expect(sw.routeFor(get('/sw.js?build=abc'), ORIGIN)).toBe('none');
    expect(sw.routeFor({ method: 'GET', url: 'not a url' }, ORIGIN)).toBe('none');
  });

  it('other files of the app (logo, the demo PDF) are network-first', () => {
    expect(sw.routeFor(get('/logo.svg'), ORIGIN)).toBe('network-first');
    expect(sw.routeFor(get('/demo/sample-contract.pdf'), ORIGIN)).toBe('network-first');
  });

  it('keeps only complete same-origin answers', () => {
    expect(sw.isCacheable({ ok: true, status: 200, type: 'basic' })).toBe(true);
    expect(sw.isCacheable({ ok: true, status: 206, type: 'basic' })).toBe(false);
    expect(sw.isCacheable({ ok: false, status: 404, type: 'basic' })).toBe(false);
    expect(sw.isCacheable({ ok: false, status: 0, type: 'opaque' })).toBe(false);
    expect(sw.isCacheable(null)).toBe(false);
  });

  it('precaches the assets index.html names, and names caches per build', () => {
    const html =
      '<script type="module" crossorigin src="/assets/index-abc123.js"></script>' +
      '<link rel="modulepreload" crossorigin href="/assets/react-def456.js">' +
      '<link rel="stylesheet" href="/assets/index-aaa111.css"><link rel="icon" href="/favicon.svg">';
    expect(sw.assetsOf(html)).toEqual([
      '/assets/index-abc123.js',
      '/assets/react-def456.js',
      '/assets/index-aaa111.css',
    ]);
    expect(sw.cacheNames('abc123')).toEqual({ shell: 'esign-shell-abc123', assets: 'esign-assets-abc123' });
  });
});

describe('registration helpers', () => {
  it('the build id is the hash of the entry file name', () => {
    expect(buildIdOf('https://esign.example.com/assets/index-BXk3a9Qz.js')).toBe('BXk3a9Qz');
    expect(buildIdOf('http://localhost:5173/src/main.tsx')).toBe('dev');
    expect(entryScriptOf('<script type="module" crossorigin src="/assets/index-Q1.js"></script>')).toBe(
      '/assets/index-Q1.js',
    );
  });

  const fakeRegistration = () => {
    const listeners: (() => void)[] = [];
    const reg = {
      waiting: null as { postMessage: (m: unknown) => void } | null,
      installing: null as null | { state: string; addEventListener(t: string, fn: () => void): void },
      addEventListener: (_t: 'updatefound', fn: () => void) => listeners.push(fn),
    };
    const install = () => {
      const changes: (() => void)[] = [];
      const worker = {
        state: 'installing',
        addEventListener: (_t: string, fn: () => void) => changes.push(fn),
      };
      reg.installing = worker;
      for (const fn of listeners) fn();
      worker.state = 'installed';
      reg.installing = null;
      reg.waiting = { postMessage: vi.fn() };
      for (const fn of changes) fn();
    };
    return { reg, install };
  };

  it('prompts once when a new worker waits behind a controlling one', () => {
    const { reg, install } = fakeRegistration();
    const onUpdate = vi.fn();
    watchForUpdate(reg, () => true, onUpdate);
    expect(onUpdate).not.toHaveBeenCalled();
    install();
    expect(onUpdate).toHaveBeenCalledTimes(1);
    expect(onUpdate).toHaveBeenCalledWith(reg.waiting);
    install();
    expect(onUpdate).toHaveBeenCalledTimes(1);
  });

  it('a first install (no controller yet) is not an update', () => {
    const { reg, install } = fakeRegistration();
    const onUpdate = vi.fn();
    watchForUpdate(reg, () => false, onUpdate);
    install();
    expect(onUpdate).not.toHaveBeenCalled();
  });

  it('a worker already waiting when the page loads is offered at once', () => {
    const { reg } = fakeRegistration();
    reg.waiting = { postMessage: vi.fn() };
    const onUpdate = vi.fn();
    watchForUpdate(reg, () => true, onUpdate);
    expect(onUpdate).toHaveBeenCalledTimes(1);
  });
});
