// `npm run bench [-- NAME...]`: every benchmark, or the named ones, printed against their budgets.
import '../scripts/require-node24.ts';
import type { Figure } from './foundation.ts';
import { printFigures } from './report.ts';

// `soak` (10,000 fuzzed verification uploads, minutes), `launch-soak` (2,000 mutated uploads and launches,
// minutes) and `cluster` (PostgreSQL, S3, three instances and
// HAProxy started for it) run only when named: `npm run bench -- soak`, `npm run bench -- cluster`.
const ON_REQUEST_ONLY = new Set(['soak', 'launch-soak', 'cluster']);

const suites: Record<string, () => Promise<{ run: () => Promise<Figure[]> }>> = {
  foundation: () => import('./foundation.ts'),
  pki: () => import('./pki.ts'),
  seal: () => import('./seal.ts'),
  sign: () => import('./sign.ts'),
  verify: () => import('./verify.ts'),
  flow: () => import('./flow.ts'),
  batch: () => import('./batch.ts'),
  bulk: () => import('./bulk.ts'),
  centre: () => import('./centre.ts'),
  lighthouse: () => import('./lighthouse.ts'),
  soak: () => import('./soak.ts'),
  'launch-soak': () => import('./launch-soak.ts'),
  cluster: () => import('./cluster.ts'),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const [name, load] of Object.entries(suites)) {
  if (wanted.length ? !wanted.includes(name) : ON_REQUEST_ONLY.has(name)) continue;
  const { run } = await load();
  printFigures(name, await run());
}
