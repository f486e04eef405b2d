import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { LocalBlobStore } from './local-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';

/** Opens the blob store the config names: an S3-compatible bucket (S3_*) or the data folder's `blobs/`. */
export async function openBlobStore(config: Pick<Config, 'dataDir' | 's3'>): Promise<BlobStore> {
  if (config.s3) return new S3BlobStore(config.s3);
  const store = new LocalBlobStore(join(config.dataDir, 'blobs'));
  await mkdir(store.root, { recursive: true });
  return store;
}
