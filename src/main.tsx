import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createHashRouter, RouterProvider } from 'react-router-dom';
import { Providers } from './app/providers.tsx';
import { routes } from './app/routes.tsx';
import { watchAccountOpened } from './lib/embedding.ts';
import { readEnv } from './lib/env.ts';

// Fail at start, naming the variable, if a build setting is malformed.
readEnv();

const router = createHashRouter(routes);

// A framed partner page hears 'accountOpened' (src/lib/embedding.ts); the offline worker only in production.
watchAccountOpened();
if (import.meta.env.PROD) {
  const entryUrl = import.meta.url;
  window.addEventListener('load', () => {
    void import('./lib/offline-worker.ts').then((m) => m.registerOfflineWorker(entryUrl));
  });
}

// A transition: React renders the first screen in slices and lets the phone's main thread breathe in between
// (one long task otherwise), while the loading line of index.html stays until the screen is ready.
const root = createRoot(document.getElementById('root')!);
startTransition(() => {
  root.render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
});
