/**
 * A bounded in-memory cache of values derived from the database. An entry answers only while
 * - the `stamp` of the tables it was read from is what it was when the read began (see db/write-watch.ts),
 * - and it is younger than `ttlMs` by the caller's clock (writes by other processes, time-dependent data).
 * Concurrent misses of one key share a single computation. Failures are not cached.
 */
export class DerivedCache<K, V> {
  readonly #entries = new Map<K, { stamp: number; at: number; value: Promise<V> }>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #stamp: () => number;

  constructor(options: { maxEntries: number; ttlMs: number; stamp: () => number }) {
    this.#maxEntries = options.maxEntries;
    this.#ttlMs = options.ttlMs;
    this.#stamp = options.stamp;
  }

  /** The value of `key` at time `nowMs`, computed by `compute` when no entry may answer. */
  get(
    key: K,
    nowMs: number,
    compute: () => Promise<V>,
    keep: (value: V) => boolean = () => true,
  ): Promise<V> {
    if (this.#ttlMs <= 0) return compute();
    const stamp = this.#stamp();
    const hit = this.#entries.get(key);
    if (hit && hit.stamp === stamp && nowMs - hit.at < this.#ttlMs && nowMs >= hit.at) return hit.value;
    const value = compute();
    const entry = { stamp, at: nowMs, value };
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    // Oldest first: Map keeps insertion order, and every (re)computation re-inserts its key.
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value as K;
      this.#entries.delete(oldest);
    }
    const drop = () => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    };
    value.then((v) => {
      if (!keep(v)) drop();
    }, drop);
    return value;
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }
}
