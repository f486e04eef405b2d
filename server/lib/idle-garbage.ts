import { getHeapStatistics } from 'node:v8';

/**
 * Gives the garbage of a busy spell back to the operating system once the server is idle (issue 23).
 *
 * Under load V8 lets its heap grow to several times what is live before it collects (its growing factor
 * reaches 4 when the program allocates fast): 2,000 uploads and launches of mutated PDFs left ~300 MB of V8
 * pages that held only garbage (a forced collection freed them; a heap snapshot before and after showed the
 * same live objects). V8 would release them in its memory reducer, but that waits for a low allocation rate,
 * and an idle server still allocates (the job system polls the database): the pages stayed for minutes.
 *
 * So once no request has been in flight for `idleMs` and the heap (V8's committed pages and the memory of
 * ArrayBuffers) has grown by at least `growthBytes` since the last collection, the process runs V8's
 * memory-reducing collection (lib/startup-garbage.ts, a few hundred ms of CPU) — at most once per `minGapMs`.
 * A steady trickle of requests never waits for it: only a pause of `idleMs` with nothing in flight.
 */
export type IdleGarbage = {
  /** Counts a request in flight until its response closes. */
  track(res: { once(event: 'close', listener: () => void): unknown }): void;
  /** Starts watching (after start-up's own release, so that the baseline is the settled heap). */
  start(): void;
  stop(): void;
};

const MB = 1024 * 1024;

export function releaseGarbageWhenIdle(options: {
  collect: () => boolean;
  idleMs?: number;
  growthBytes?: number;
  minGapMs?: number;
  /** How often it looks (default: half of idleMs, at least a second). */
  checkEveryMs?: number;
  /** Told each time it collects: how much of the heap it gave back. */
  onCollect?: (fact: { beforeMb: number; afterMb: number; ms: number }) => void;
}): IdleGarbage {
  const idleMs = options.idleMs ?? 10_000;
  const growthBytes = options.growthBytes ?? 64 * MB;
  const minGapMs = options.minGapMs ?? 60_000;
  const heapBytes = () => {
    const h = getHeapStatistics();
    return h.total_heap_size + h.external_memory;
  };
  let inFlight = 0;
  let lastActive = performance.now();
  let lastCollect = Number.NEGATIVE_INFINITY;
  let baseline = heapBytes();
  let timer: NodeJS.Timeout | undefined;

  const check = () => {
    const now = performance.now();
    if (inFlight > 0 || now - lastActive < idleMs || now - lastCollect < minGapMs) return;
    const before = heapBytes();
    // V8 collected and shrank by itself: the lower mark is the one to grow from
    if (before < baseline) baseline = before;
    if (before - baseline < growthBytes) return;
    if (!options.collect()) {
      clearInterval(timer); // no gc in this runtime: nothing to do, ever
      return;
    }
    lastCollect = performance.now();
    baseline = heapBytes();
    options.onCollect?.({
      beforeMb: Math.round(before / MB),
      afterMb: Math.round(baseline / MB),
      ms: Math.round(lastCollect - now),
    });
  };

  return {
    track(res) {
      inFlight += 1;
      res.once('close', () => {
        inFlight -= 1;
        lastActive = performance.now();
      });
    },
    start() {
      baseline = heapBytes();
      timer ??= setInterval(check, options.checkEveryMs ?? Math.max(1000, Math.floor(idleMs / 2)));
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
