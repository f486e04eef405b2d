import { createHash } from 'node:crypto';

/**
 * Content-addressed store for file bytes (PDFs, seal images, ...). The key is the lowercase hex SHA-256
 * of the bytes, so putting the same bytes twice stores them once, and a key always names the same bytes.
 */
export interface BlobStore {
  /**
   * Stores the bytes (atomically: a reader never sees half a blob) and returns their key. `fresh`: the
   * caller knows these bytes cannot be stored yet (they carry a signature made a moment ago), so a store
   * may skip asking whether they are.
   */
  put(bytes: Uint8Array, opts?: { fresh?: boolean }): Promise<string>;
  /** The bytes of a key, or null when absent. */
  get(key: string): Promise<Uint8Array | null>;
  has(key: string): Promise<boolean>;
  /** Removes a blob; no error when it is absent. */
  delete(key: string): Promise<void>;
}

const KEY = /^[0-9a-f]{64}$/;

export function blobKeyOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Rejects anything that is not a SHA-256 hex key, so a key can never walk out of the store's folder. */
export function assertBlobKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`not a blob key: ${key.slice(0, 80)}`);
}
