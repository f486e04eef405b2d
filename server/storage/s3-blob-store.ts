import { createHash, createHmac } from 'node:crypto';
import { type BlobStore, assertBlobKey, blobKeyOf } from './blob-store.ts';

type S3Settings = {
  /** e.g. https://s3.eu-central-1.amazonaws.com, http://minio.internal:9000 */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Folder inside the bucket, e.g. `esign/` (default none). */
  prefix?: string;
};

const sha256Hex = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Uint8Array | string, data: string) => createHmac('sha256', key).update(data).digest();
/** RFC 3986 encoding as AWS wants it in a canonical URI (slashes kept). */
const encodePath = (path: string) =>
  path
    .split('/')
    .map((seg) =>
      encodeURIComponent(seg).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    )
    .join('/');

/**
 * AWS Signature Version 4 for one S3 request with a header signature (AWS General Reference, "Signing AWS
 * API requests"). Returns the headers to send: the given ones plus x-amz-date, x-amz-content-sha256
 * and authorization (host is signed but set by fetch). `payloadHash` overrides the hash of `payload`.
 */
export function signV4(r: {
  method: string;
  host: string;
  /** Already URI-encoded path, no query. */
  path: string;
  headers: Record<string, string>;
  payload: Uint8Array;
  payloadHash?: string;
  now: Date;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}): Record<string, string> {
  const amzDate = r.now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const payloadHash = r.payloadHash ?? sha256Hex(r.payload);
  const all: Record<string, string> = { 'x-amz-content-sha256': payloadHash, 'x-amz-date': amzDate };
  for (const [k, v] of Object.entries(r.headers)) all[k.toLowerCase()] = v;
  const toSignHeaders: Record<string, string> = { ...all, host: r.host };
  const names = Object.keys(toSignHeaders).sort();
  const canonical = [
    r.method,
    r.path,
    '',
    ...names.map((n) => `${n}:${toSignHeaders[n].trim().replace(/\s+/g, ' ')}`),
    '',
    names.join(';'),
    payloadHash,
  ].join('\n');
  const scope = `${day}/${r.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${r.secretAccessKey}`, day), r.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return {
    ...all,
    authorization: `AWS4-HMAC-SHA256 Credential=${r.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  };
}

/**
 * Blobs in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2…), path-style addressing, signed with AWS
 * Signature Version 4 (written here over node:crypto and fetch: four requests do not need an SDK).
 * Objects are content-addressed like the local store (`<prefix><ab>/<sha256>`); an S3 PUT is atomic, so
 * a reader never sees half a blob, and a put of bytes already there is skipped (S3 stand-ins such as
 * s3rver write an object in place, so rewriting the same bytes would let a concurrent reader see them
 * half-written).
 */
export class S3BlobStore implements BlobStore {
  readonly #s: S3Settings;
  readonly #base: URL;

  constructor(settings: S3Settings) {
    if (!settings.accessKeyId || !settings.secretAccessKey)
      throw new Error('S3 blob store: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required');
    this.#s = settings;
    this.#base = new URL(settings.endpoint.endsWith('/') ? settings.endpoint : `${settings.endpoint}/`);
  }

  /** `/<endpoint path>/<bucket>/<prefix><ab>/<key>` (path-style: works with every S3-compatible store). */
  #objectPath(key: string): string {
    assertBlobKey(key);
    return `${this.#base.pathname}${this.#s.bucket}/${this.#s.prefix ?? ''}${key.slice(0, 2)}/${key}`;
  }

  /** One signed request. The payload hash is always sent (no UNSIGNED-PAYLOAD): the store checks it. */
  async #request(
    method: 'GET' | 'PUT' | 'HEAD' | 'DELETE',
    key: string,
    body?: Uint8Array,
  ): Promise<Response> {
    const path = encodePath(this.#objectPath(key));
    const url = new URL(path, this.#base);
    const headers: Record<string, string> = body ? { 'content-type': 'application/octet-stream' } : {};
    const signed = signV4({
      method,
      host: url.host,
      path,
      headers,
      payload: body ?? new Uint8Array(0),
      // A blob's key is the SHA-256 of its bytes, which is the payload hash SigV4 signs.
      payloadHash: body ? key : undefined,
      now: new Date(),
      region: this.#s.region,
      accessKeyId: this.#s.accessKeyId ?? '',
      secretAccessKey: this.#s.secretAccessKey ?? '',
    });
    return fetch(url, {
      method,
      headers: signed,
      body: body ? new Uint8Array(body) : undefined,
      signal: AbortSignal.timeout(60_000),
    });
  }

  async #fail(what: string, res: Response): Promise<never> {
    // The store's error text (XML) names the problem; keys and secrets are not in it.
    const text = (await res.text().catch(() => '')).slice(0, 300);
    throw new Error(`S3 ${what} answered ${res.status}: ${text}`);
  }

  async put(bytes: Uint8Array, opts?: { fresh?: boolean }): Promise<string> {
    const key = blobKeyOf(bytes);
    // Bytes the caller knows are new (a fresh signature) cannot be there: one request instead of two.
    if (!opts?.fresh && (await this.has(key))) return key;
    const res = await this.#request('PUT', key, bytes);
    if (!res.ok) await this.#fail(`PUT ${key}`, res);
    await res.arrayBuffer();
    return key;
  }

  async get(key: string): Promise<Uint8Array | null> {
    const res = await this.#request('GET', key);
    if (res.status === 404) {
      await res.arrayBuffer();
      return null;
    }
    if (!res.ok) await this.#fail(`GET ${key}`, res);
    const bytes = new Uint8Array(await res.arrayBuffer());
    // Content addressing doubles as an integrity check: bytes that do not hash to their key are not returned.
    if (blobKeyOf(bytes) !== key) throw new Error(`S3 GET ${key}: the bytes do not match their key`);
    return bytes;
  }

  async has(key: string): Promise<boolean> {
    const res = await this.#request('HEAD', key);
    await res.arrayBuffer();
    if (res.status === 404) return false;
    if (!res.ok) await this.#fail(`HEAD ${key}`, res);
    return true;
  }

  async delete(key: string): Promise<void> {
    const res = await this.#request('DELETE', key);
    if (!res.ok && res.status !== 404) await this.#fail(`DELETE ${key}`, res);
    await res.arrayBuffer();
  }
}
