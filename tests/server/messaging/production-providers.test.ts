import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import {
  developmentProvidersMessage,
  refusedDevelopmentProviders,
} from '#server/providers/production-check.ts';

const MASTER_KEY = 'production-test-master-key-0123456789abcdef';
const REAL_SMS = {
  SMS_PROVIDER: 'aliyun',
  SMS_ACCESS_KEY_ID: 'id',
  SMS_ACCESS_KEY_SECRET: 'secret',
  SMS_SIGN_NAME: 'sign',
  SMS_TEMPLATE_CODE: 'SMS_1',
};
const refusedIn = (env: Record<string, string>) =>
  refusedDevelopmentProviders(
    loadConfig({ NODE_ENV: 'production', ESIGN_MASTER_KEY: MASTER_KEY, ...env }),
  ).map((r) => r.variable);

describe('production refuses development providers', () => {
  it('names each variable still on a development provider', () => {
    expect(refusedIn({})).toEqual(['SMS_PROVIDER', 'IDENTITY_PROVIDER']);
    expect(refusedIn(REAL_SMS)).toEqual(['IDENTITY_PROVIDER']);
    expect(refusedIn({ SMS_PROVIDER: 'outbox', ALLOW_DEV_IDENTITY_PROVIDER: '1' })).toEqual(['SMS_PROVIDER']);
  });

  it('ALLOW_DEVELOPMENT_PROVIDERS allows exactly the variables it names', () => {
    expect(refusedIn({ ALLOW_DEVELOPMENT_PROVIDERS: 'SMS_PROVIDER' })).toEqual(['IDENTITY_PROVIDER']);
    expect(refusedIn({ ALLOW_DEVELOPMENT_PROVIDERS: 'SMS_PROVIDER, IDENTITY_PROVIDER' })).toEqual([]);
    const message = developmentProvidersMessage(
      loadConfig({ NODE_ENV: 'production', ESIGN_MASTER_KEY: MASTER_KEY }),
    );
    expect(message).toContain('ALLOW_DEVELOPMENT_PROVIDERS=SMS_PROVIDER,IDENTITY_PROVIDER');
  });

  it('development and test run on the outbox without complaint', () => {
    expect(refusedDevelopmentProviders(loadConfig({ NODE_ENV: 'development' }))).toEqual([]);
  });

  it('a real provider without its variables is a configuration error naming each', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'tencent' })).toThrow(
      /SMS_ACCESS_KEY_ID[\s\S]*SMS_ACCESS_KEY_SECRET[\s\S]*SMS_SIGN_NAME[\s\S]*SMS_APP_ID[\s\S]*SMS_TEMPLATE_REGISTER/,
    );
    expect(() => loadConfig({ SMS_PROVIDER: 'yunpian' })).toThrow(
      /SMS_PROVIDER: must be aliyun, tencent or outbox/,
    );
    expect(() => loadConfig({ ...REAL_SMS, SMS_ENDPOINT: 'ftp://x' })).toThrow(/SMS_ENDPOINT/);
    expect(() => loadConfig({ SMTP_URL: 'smtp://localhost:25' })).toThrow(/MAIL_FROM: required/);
  });

  it('`NODE_ENV=production` start with only ESIGN_MASTER_KEY exits non-zero naming SMS_PROVIDER', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'esign-prod-'));
    try {
      const run = spawnSync(process.execPath, ['server/main.ts'], {
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          ESIGN_MASTER_KEY: MASTER_KEY,
          DATA_DIR: dataDir,
          PORT: '0',
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).not.toBe(0);
      expect(run.status).not.toBeNull();
      expect(run.stderr).toContain('SMS_PROVIDER');
      expect(run.stderr).toContain('IDENTITY_PROVIDER');
      expect(run.stderr).not.toContain(MASTER_KEY);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
