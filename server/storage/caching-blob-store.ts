import type { BlobStore } from './blob-store.ts';

/**
 * A blob store with a small in-memory cache in front (for a remote store: S3). Blobs are content-addressed
 * and never change, so a cached copy is always right: what this instance wrote or read lately (the version
 * a signer just produced, a seal's PDF, a document the next signer opens) is served without a request.
 * Bounded by total bytes, least recently used out first; blobs larger than a quarter of the bound are not
 * kept. Callers get their own copy, so changing returned bytes never changes the cache.
 */
export class CachingBlobStore implements BlobStore {
  readonly #store: BlobStore;
  readonly #maxBytes: number;
  readonly #entries = new Map<string, Uint8Array>();
  #bytes = 0;

  constructor(store: BlobStore, maxBytes: number) {
    this.#store = store;
    this.#maxBytes = maxBytes;
  }

  #keep(key: string, bytes: Uint8Array): void {
    if (bytes.length > this.#maxBytes / 4) return;
    this.#drop(key);
    this.#entries.set(key, bytes.slice());
    this.#bytes += bytes.length;
    for (const [k, v] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(k);
      this.#bytes -= v.length;
    }
  }

  #drop(key: string): void {
    const had = this.#entries.get(key);
    if (!had) return;
    this.#entries.delete(key);
    this.#bytes -= had.length;
  }

  async put(bytes: Uint8Array, opts?: { fresh?: boolean }): Promise<string> {
    const key = await this.#store.put(bytes, opts);
    this.#keep(key, bytes);
    return key;
  }

  async get(key: string): Promise<Uint8Array | null> {
    const hit = this.#entries.get(key);
    if (hit) {
      // Most recently used last.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.slice();
    }
    const bytes = await this.#store.get(key);
    if (bytes) this.#keep(key, bytes);
    return bytes;
  }

  /** Always asks the store: another instance may have deleted the blob. */
  has(key: string): Promise<boolean> {
    return this.#store.has(key);
  }

  async delete(key: string): Promise<void> {
    this.#drop(key);
    await this.#store.delete(key);
  }

  /** Bytes held now (for tests). */
  get cachedBytes(): number {
    return this.#bytes;
  }
}
