// Client test setup: jsdom gaps antd needs, msw with unhandled requests as errors, and a clean slate
// (DOM, cookies, storage, stores) after every test.
import { cleanup, configure } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { server } from './msw.ts';

// findBy*/waitFor wait up to 5 s (default 1 s): lazy screens and chunks load slowly on a busy 2-core CI machine.
configure({ asyncUtilTimeout: 5000 });

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}
if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
  Object.defineProperty(globalThis, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.restoreAllMocks();
  vi.useRealTimers();
  for (const name of Object.keys(Cookies.get())) Cookies.remove(name, { path: '/' });
  sessionStorage.clear();
  localStorage.clear();
});
afterAll(async () => {
  // React's scheduler may still hold work queued by the last test's unmount (a setImmediate task); let it run
  // while jsdom's window exists, or it fails after the environment is torn down ("window is not defined").
  await new Promise((resolve) => setImmediate(resolve));
  server.close();
});
