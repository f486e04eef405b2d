// The S3-compatible blob store (server/storage/s3-blob-store.ts): its Signature V4 against AWS's published
// example and botocore, then the store and the whole app against s3rver (an S3 API server on the disk).
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Seal, getUserCertSealList, savePersonSeal } from '#contract/calls/seal.ts';
import { blobKeyOf } from '#server/storage/blob-store.ts';
import { CachingBlobStore } from '#server/storage/caching-blob-store.ts';
import { S3BlobStore, signV4 } from '#server/storage/s3-blob-store.ts';
import { createTestApp } from './helper.ts';
import { person } from './fixtures/seal.ts';

describe('signV4', () => {
  it("gives AWS's published signature for its S3 GET example", () => {
    const headers = signV4({
      method: 'GET',
      host: 'examplebucket.s3.amazonaws.com',
      path: '/test.txt',
      headers: { Range: 'bytes=0-9' },
      payload: new Uint8Array(0),
      now: new Date('2013-05-24T00:00:00Z'),
      region: 'us-east-1',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    });
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('signs a PUT with a body as botocore does (S3SigV4Auth, botocore 1.43)', () => {
    const headers = signV4({
      method: 'PUT',
      host: '127.0.0.1:9000',
      path: '/esign/blobs/2c/2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
      headers: { 'content-type': 'application/octet-stream' },
      payload: new TextEncoder().encode('hello'),
      now: new Date('2026-11-22T03:00:00Z'),
      region: 'eu-central-1',
      accessKeyId: 'AKID',
      secretAccessKey: 'SECRET',
    });
    expect(headers.authorization).toMatch(
      /Signature=c1ab1d12b9aec129f321735243d2a0f9b5f9494eac6c63fb785c0c31cf583f1a$/,
    );
    expect(headers['x-amz-content-sha256']).toBe(blobKeyOf(new TextEncoder().encode('hello')));
  });
});

describe('against an S3 API server', () => {
  let server: S3rver;
  let endpoint: string;
  let directory: string;
  const settings = () => ({
    endpoint,
    bucket: 'esign',
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  });

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'esign-s3-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory,
      configureBuckets: [{ name: 'esign', configs: [] }],
    });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(() => server?.close());

  it('stores content-addressed blobs: put (twice), has, get, delete; absent is null', async () => {
    const store = new S3BlobStore({ ...settings(), prefix: 'blobs/' });
    const bytes = new TextEncoder().encode(`a contract ${Date.now()}`);
    const key = await store.put(bytes);
    expect(key).toBe(blobKeyOf(bytes));
    expect(await store.put(bytes)).toBe(key);
    expect(await store.has(key)).toBe(true);
    expect(await store.get(key)).toEqual(bytes);
    await store.delete(key);
    expect(await store.has(key)).toBe(false);
    expect(await store.get(key)).toBeNull();
    await store.delete(key); // absent: no error
    await expect(store.get('../../etc/passwd')).rejects.toThrow(/not a blob key/);
    // Fresh bytes (a new signature) go up in one PUT, without asking first; the store checks their hash.
    const signed = new TextEncoder().encode(`a signed contract ${Date.now()}`);
    const freshKey = await store.put(signed, { fresh: true });
    expect(freshKey).toBe(blobKeyOf(signed));
    expect(await store.get(freshKey)).toEqual(signed);
  });

  it('an instance keeps the latest blobs in memory: served without the bucket, each caller its own copy', async () => {
    const bucket = new S3BlobStore({ ...settings(), prefix: 'cached/' });
    const store = new CachingBlobStore(bucket, 4096);
    const a = new TextEncoder().encode(`written here ${Date.now()} `.padEnd(1000, 'a'));
    const b = new TextEncoder().encode(`read here ${Date.now()} `.padEnd(1000, 'b'));
    const keyA = await store.put(a);
    const keyB = await bucket.put(b);
    expect(await store.get(keyB)).toEqual(b);
    expect(await bucket.has(keyA)).toBe(true);
    // Gone from the bucket (behind the cache's back): both still come from memory.
    await bucket.delete(keyA);
    await bucket.delete(keyB);
    expect(await store.get(keyB)).toEqual(b);
    const got = await store.get(keyA);
    expect(got).toEqual(a);
    got?.fill(0);
    expect(await store.get(keyA)).toEqual(a);
    // has() asks the bucket, which no longer holds them.
    expect(await store.has(keyA)).toBe(false);
    // Bounded: three more blobs of 1,000 bytes push the least recently used (b) out.
    for (const fill of ['c', 'd', 'e']) await store.put(new TextEncoder().encode(''.padEnd(1000, fill)));
    expect(store.cachedBytes).toBeLessThanOrEqual(4096);
    expect(await store.get(keyB)).toBeNull();
    expect(await store.get(keyA)).toEqual(a);
    // A delete through the store drops its copy too.
    await store.delete(keyA);
    expect(await store.get(keyA)).toBeNull();
  });

  it('refuses bytes that do not hash to their key, and says what a missing bucket is', async () => {
    const store = new S3BlobStore(settings());
    const real = new TextEncoder().encode('the real bytes');
    const key = blobKeyOf(real);
    // Someone with access to the bucket swaps the object's bytes.
    const path = `/esign/${key.slice(0, 2)}/${key}`;
    const evil = new TextEncoder().encode('other bytes');
    const headers = signV4({
      method: 'PUT',
      host: new URL(endpoint).host,
      path,
      headers: {},
      payload: evil,
      now: new Date(),
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    expect((await fetch(`${endpoint}${path}`, { method: 'PUT', headers, body: evil })).ok).toBe(true);
    await expect(store.get(key)).rejects.toThrow(/do not match their key/);
    const nowhere = new S3BlobStore({ ...settings(), bucket: 'no-such-bucket' });
    await expect(nowhere.put(real)).rejects.toThrow(/S3 .* answered 404/);
  });

  it('the app keeps its files in the bucket: a seal is made and its image served from S3', async () => {
    const t = await createTestApp({
      S3_ENDPOINT: endpoint,
      S3_BUCKET: 'esign',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_PREFIX: 'app',
    });
    try {
      const p = await person(t, '张三');
      const saved = await p.agent.call<Seal>(savePersonSeal, { userType: 0, sealDTO: { userType: 0 } });
      expect(saved.body.code, saved.body.msg).toBe(0);
      const { seals } = (await p.agent.call<{ seals: Seal[] }>(getUserCertSealList, { userType: 0 })).body
        .data;
      const png = await p.agent.get(seals[0].pngUrl);
      expect(png.status).toBe(200);
      expect(png.headers['content-type']).toBe('image/png');
      // The bytes live under the prefix in the bucket, none in the data folder.
      expect(readdirSync(join(directory, 'esign', 'app')).length).toBeGreaterThan(0);
      expect(existsSync(join(t.deps.config.dataDir, 'blobs'))).toBe(false);
    } finally {
      await t.close();
    }
  });
});
