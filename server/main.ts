// Server entry (npm start, scripts/start.ts, the e2e and bench servers; the bundle's entry too): turns on Node's
// compile cache, then loads the server. The cache keeps the compiled code of the ~1000 modules the server
// loads (its own and node_modules') under node_modules/.cache, so a start after the first skips parsing and
// compiling them. It must be on before those modules load, hence this small first file. Where the folder is
// not writable Node simply runs without the cache.
import { enableCompileCache, registerHooks } from 'node:module';
import { join } from 'node:path';

enableCompileCache(join(import.meta.dirname, '..', 'node_modules', '.cache', 'server-compile'));

// drizzle-orm's package.json holds a 175 kB "exports" map, and Node 24 parses it again for every file it
// resolves inside the package (to learn the file's format), about 470 times at start: over a second of CPU
// and its garbage. The relative imports between drizzle-orm's own ESM files are resolved here instead: the
// package is "type": "module" with no nested package.json, so each such file is an ES module.
const DRIZZLE = '/node_modules/drizzle-orm/';
registerHooks({
  resolve(specifier, context, nextResolve) {
    const parent = context.parentURL;
    if (parent?.includes(DRIZZLE) && specifier.endsWith('.js') && /^\.\.?\//.test(specifier)) {
      const url = new URL(specifier, parent).href;
      if (url.includes(DRIZZLE)) return { url, format: 'module', shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
});

// The config, and on an empty data folder the database template's copy, start first (early-start.ts): the copy
// runs on a thread of its own while serve.ts and the rest load.
await import('./early-start.ts');
await import('./serve.ts');
