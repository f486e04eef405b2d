import './scripts/require-node24.ts';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src', import.meta.url));

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: on CI's 2 cores that is one, every file in turn.
    // A server test file spends much of its time waiting (a spawned server, a child process, the disk), so
    // two files at a time keep both cores busy; each file has its own database (memory://, or a database
    // of its own on PostgreSQL) and listens on port 0, so files never share state.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        plugins: [react()],
        resolve: {
          alias: [
            { find: /^@\//, replacement: `${src}/` },
            // pdf.js under jsdom needs its legacy build (TOOLCHAIN.md); only in tests.
            { find: /^pdfjs-dist$/, replacement: 'pdfjs-dist/legacy/build/pdf.mjs' },
          ],
        },
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['tests/client/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/client/setup.ts'],
          // The first test of a file imports the app's lazy routes cold: seconds on a busy 2-core machine.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts', 'tests/contract/**/*.test.ts'],
          globalSetup: ['tests/server/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
    ],
  },
});
