// Development server logs are readable lines (pino-pretty, development only); production and test logs
// stay one JSON object per line, and secrets stay redacted either way.
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { hasPinoPretty, loggerOptions } from '#server/lib/logger.ts';

const logOnce = (nodeEnv: string) =>
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import pino from 'pino';
       import { loggerOptions } from './server/lib/logger.ts';
       const log = pino(loggerOptions({ logLevel: 'info', nodeEnv: '${nodeEnv}' }));
       log.info({ req: { headers: { cookie: 'sid=secret-session' } } }, 'server ready');`,
    ],
    { encoding: 'utf8' },
  );

describe('server logs', () => {
  test('pino-pretty is installed (a development dependency)', () => {
    expect(hasPinoPretty()).toBe(true);
  });

  test('development: pretty transport; production and test: JSON', () => {
    expect(loggerOptions({ logLevel: 'info', nodeEnv: 'development' }).transport).toMatchObject({
      target: 'pino-pretty',
    });
    expect(loggerOptions({ logLevel: 'info', nodeEnv: 'production' }).transport).toBeUndefined();
    expect(loggerOptions({ logLevel: 'info', nodeEnv: 'test' }).transport).toBeUndefined();
    // Without pino-pretty (a production install) development falls back to JSON.
    expect(loggerOptions({ logLevel: 'info', nodeEnv: 'development' }, false).transport).toBeUndefined();
  });

  test('what a development and a production server print', () => {
    const dev = logOnce('development');
    expect(dev).toMatch(/INFO.*server ready/);
    expect(dev.trim().startsWith('{')).toBe(false);
    expect(dev).not.toContain('secret-session');
    const prod = logOnce('production');
    const line = JSON.parse(prod.trim().split('\n')[0]);
    expect(line.msg).toBe('server ready');
    expect(JSON.stringify(line)).not.toContain('secret-session');
  }, 30_000);
});
