import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type BlobStore, assertBlobKey, blobKeyOf } from './blob-store.ts';

/**
 * Blobs as files in a folder: `<root>/ab/abcdef...` (two-character fan-out). Written to a temporary file,
 * flushed, then renamed into place, so a crash never leaves a partial blob under its key.
 */
export class LocalBlobStore implements BlobStore {
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return join(this.root, key.slice(0, 2), key);
  }

  async put(bytes: Uint8Array): Promise<string> {
    const key = blobKeyOf(bytes);
    const target = this.pathOf(key);
    if (await this.has(key)) return key;
    await mkdir(join(this.root, key.slice(0, 2)), { recursive: true });
    const tmp = join(this.root, `.tmp-${key.slice(0, 16)}-${randomBytes(6).toString('hex')}`);
    const fh = await open(tmp, 'wx');
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return key;
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      return new Uint8Array(await readFile(this.pathOf(key)));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async has(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
