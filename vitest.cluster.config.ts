// `npm run test:cluster`: the several-instances test (tests/cluster), apart from `vitest run` because it
// starts PostgreSQL, s3rver, three servers and HAProxy (minutes).
import './scripts/require-node24.ts';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'cluster',
    environment: 'node',
    include: ['tests/cluster/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
