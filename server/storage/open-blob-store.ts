import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { CachingBlobStore } from './caching-blob-store.ts';
import { LocalBlobStore } from './local-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';

/** Blobs an instance keeps in memory in front of S3 (they never change, so a copy is always right). */
const S3_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Opens the blob store the config names: an S3-compatible bucket (S3_*), with the latest blobs this
 * instance wrote or read kept in memory, or the data folder's `blobs/` (the OS caches those files).
 */
export async function openBlobStore(config: Pick<Config, 'dataDir' | 's3'>): Promise<BlobStore> {
  if (config.s3) return new CachingBlobStore(new S3BlobStore(config.s3), S3_CACHE_BYTES);
  const store = new LocalBlobStore(join(config.dataDir, 'blobs'));
  await mkdir(store.root, { recursive: true });
  return store;
}
