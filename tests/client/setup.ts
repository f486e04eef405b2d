// Client test setup: jsdom gaps antd needs, msw with unhandled requests as errors, and a clean slate
// (DOM, cookies, storage, stores) after every test.
import { cleanup, configure, fireEvent, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { server } from './fixtures/msw.ts';

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
// antd's static message and notification live outside the tested tree, so cleanup() leaves them, and their
// close timers (seconds) would fire after the file's jsdom is gone: React then renders into no window
// ("window is not defined"). Close every one a test left and end its leave motion (jsdom runs no CSS).
let hasStaticNotices = false;
async function closeStaticNotices(): Promise<void> {
  // Their lists stay in the page once shown, even empty: the file then waits for their root at its end.
  if (document.querySelector('.ant-message, .ant-notification')) hasStaticNotices = true;
  if (!document.querySelector('.ant-message-notice, .ant-notification-notice')) return;
  const { loadMessage, loadNotification } = await import('@/lib/antd-static.tsx');
  (await loadMessage()).destroy();
  (await loadNotification()).destroy();
  await waitFor(() => {
    const left = document.querySelectorAll('.ant-message-notice, .ant-notification-notice');
    for (const notice of left) {
      fireEvent.transitionEnd(notice);
      fireEvent.animationEnd(notice);
    }
    if (left.length > 0) throw new Error(`${left.length} antd notices still showing`);
  });
}

afterEach(async () => {
  await closeStaticNotices();
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
  // antd's static notices keep a React root of their own, outside every test's tree, whose updates go on after
  // the last notice left (the list empties, its effects run, one update scheduling the next): a file that
  // showed one gives them a second to finish while the window still exists.
  for (let waited = 0; hasStaticNotices && waited < 1000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setImmediate(resolve));
  }
  server.close();
});
