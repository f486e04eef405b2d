import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type GcOptions = { type: 'major'; execution: 'sync'; flavor: 'last-resort' };

/**
 * Returns the memory that starting up used and no longer needs to the operating system, once.
 *
 * Start-up allocates far more than it keeps: Node's ES-module resolver re-reads the `exports` map of a
 * package's package.json for every file it loads from it (drizzle-orm: 180 kB, ~450 files, about 140 MB of
 * strings), and PGlite compiles its WebAssembly. V8 answers that burst by growing the young generation to
 * its maximum (128 MB here) and keeps those pages committed while the process idles; an ordinary GC frees
 * the objects but not the pages. The "last-resort" collection is V8's memory-reducing one (what it runs
 * under memory pressure): it also shrinks the young generation and releases empty pages. It runs several
 * full collections, a few hundred milliseconds of CPU, once: serve.ts calls it once the job system has
 * started (a second after listen, so pg-boss's start-up garbage goes too), so the first requests need not
 * wait for it. (Since server/main.ts resolves drizzle-orm's own imports itself, the
 * resolver's share of that garbage is gone; PGlite's and the modules' remain.)
 *
 * `gc` is reached through V8's own gc extension, enabled just long enough to fetch the function in a
 * fresh context, so that no `gc` global appears in the application's context.
 */
export function releaseStartupGarbage(): void {
  collectGarbage();
}

let gcFunction: ((options: GcOptions) => void) | null | undefined;

/**
 * V8's memory-reducing ("last-resort") collection, if the runtime lets us reach `gc`; answers whether it ran.
 * Also what lib/idle-garbage.ts runs once the server is idle after a busy spell.
 */
export function collectGarbage(): boolean {
  if (gcFunction === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gcFunction = runInNewContext('gc') as (options: GcOptions) => void;
    } catch {
      // Not every runtime honours the flag after start; the process then simply keeps the pages.
      gcFunction = null;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  gcFunction?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return Boolean(gcFunction);
}
