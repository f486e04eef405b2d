import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createHashRouter, RouterProvider } from 'react-router-dom';
import { Providers } from './app/providers.tsx';
import { routes } from './app/routes.tsx';
import { readEnv } from './lib/env.ts';

// Fail at start, naming the variable, if a build setting is malformed.
readEnv();

const router = createHashRouter(routes);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
