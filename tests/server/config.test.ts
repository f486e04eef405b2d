import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#server/config.ts';

describe('config', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    // A new user's `npm start` (development) listens on this machine only (issue 16).
    expect(c.host).toBe('127.0.0.1');
    expect(c.publicUrl).toBe('http://localhost:8080');
    expect(c.database).toEqual({ kind: 'pglite', dataDir: expect.stringMatching(/data[/\\]pg$/) });
    expect(c.bodyLimitBytes).toBe(1024 * 1024);
    expect(c.uploadLimitBytes).toBe(50 * 1024 * 1024);
    expect(c.isProduction).toBe(false);
    expect(c.isSecureCookies).toBe(false);
  });

  it('listens on every interface only in production or when HOST says so', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'production', ESIGN_MASTER_KEY: 'k'.repeat(32) }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '  ' }).host).toBe('127.0.0.1');
  });

  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
  });

  it('production refuses to start without ESIGN_MASTER_KEY', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/ESIGN_MASTER_KEY/);
    expect(loadConfig({ NODE_ENV: 'production', ESIGN_MASTER_KEY: 'k'.repeat(32) }).isProduction).toBe(true);
  });

  it('selects the database and secure cookies from the settings', () => {
    expect(loadConfig({ DATABASE_URL: 'memory://' }).database).toEqual({ kind: 'pglite', dataDir: null });
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@h/db' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@h/db',
    });
    const https = loadConfig({ PUBLIC_URL: 'https://sign.example.com/' });
    expect(https.publicUrl).toBe('https://sign.example.com');
    expect(https.isSecureCookies).toBe(true);
  });

  it('an S3 store needs its bucket and keys, named when missing; the prefix becomes a folder', () => {
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio:9000' })).toThrow(
      /S3_BUCKET: required[\s\S]*S3_ACCESS_KEY_ID: required[\s\S]*S3_SECRET_ACCESS_KEY: required/,
    );
    const full = {
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'b',
      S3_ACCESS_KEY_ID: 'a',
      S3_SECRET_ACCESS_KEY: 's',
    };
    expect(() => loadConfig({ ...full, S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT: must be an http/);
    expect(loadConfig({ ...full, S3_PREFIX: '/esign/' }).s3).toMatchObject({
      prefix: 'esign/',
      region: 'us-east-1',
    });
    expect(loadConfig({}).s3).toBeUndefined();
  });
});
