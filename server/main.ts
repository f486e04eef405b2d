// Server entry (npm start, scripts/start.ts, the e2e and bench servers): turns on Node's compile cache, then
// loads the server. The cache keeps the compiled code of the ~1000 modules the server loads (its own and
// node_modules') under node_modules/.cache, so a start after the first skips parsing and compiling them.
// It must be on before those modules load, hence this small first file. Where the folder is not writable
// Node simply runs without the cache.
import { enableCompileCache } from 'node:module';
import { join } from 'node:path';

enableCompileCache(join(import.meta.dirname, '..', 'node_modules', '.cache', 'server-compile'));
await import('./serve.ts');
